package ui

import (
	"fmt"

	"github.com/mcplens/mcplens/model"
)

// cycleProtocol forces the next protocol revision on every server: the
// profile's own ("" first), then each revision mcplens knows, newest
// first. The servers are connected again, as the client they were
// connected as, at that revision; each says in its detail which revision
// it settled on and why.
func (m *Model) cycleProtocol() {
	sw := m.can.protocol
	if sw == nil {
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
	labels := m.live.labels()
	cs.reconnected, cs.of = 0, len(labels)
	if r := m.can.reconnect; r != nil {
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
