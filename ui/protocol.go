package ui

import (
	"fmt"

	"github.com/mcplens/mcplens/model"
)

// A protocolSwitcher is a backend that can force a protocol revision on
// every server from its next connect on ("" for each handshake's own); a
// *loader.Session is one.
type protocolSwitcher interface {
	SetProtocol(revision string)
}

// SetProtocol names the revision forced on every server (--protocol), ""
// for none: the header says it, and V cycles on from it.
func (m *Model) SetProtocol(revision string) {
	m.clients.protocol = revision
}

// cycleProtocol forces the next protocol revision on every server: the
// profile's own ("" first), then each revision mcplens knows, newest
// first. The servers are connected again, as the client they were
// connected as, at that revision; each says in its detail which revision
// it settled on and why.
func (m *Model) cycleProtocol() {
	sw, ok := m.backend.(protocolSwitcher)
	if !ok {
		return
	}
	revisions := append([]string{""}, model.Revisions()...)
	next := 0
	for i, r := range revisions {
		if r == m.clients.protocol {
			next = (i + 1) % len(revisions)
		}
	}
	m.clients.protocol = revisions[next]
	sw.SetProtocol(m.clients.protocol)
	h := model.NeutralHandshake()
	if c, ok := m.clients.active(); ok {
		h = c.Handshake
	}
	cs := &m.clients
	cs.pending = map[string]bool{}
	labels := m.surface.labels()
	cs.reconnected, cs.of = 0, len(labels)
	if r, can := m.backend.(reconnector); can {
		for _, label := range labels {
			if r.Reconnect(label, h) {
				cs.pending[label] = true
				cs.reconnected++
			}
		}
	}
}

// protocolHeader is the header's part naming the forced revision, "" when
// none is.
func (m *Model) protocolHeader() string {
	if m.clients.protocol == "" {
		return ""
	}
	s := m.c.styles
	return s.HeaderMuted.Render(" · protocol: ") + s.PolicyName.Render(fmt.Sprintf("%s (forced)", model.Sanitize(m.clients.protocol)))
}
