package ui

import (
	"fmt"

	"github.com/mcplens/mcplens/model"
)

// clientSwitch is the client profile c cycles through, and where the
// servers' reconnecting stands.
type clientSwitch struct {
	all []model.Client
	// at indexes all; -1 is mcplens as itself, the neutral handshake.
	at int
	// policyPicked is set when p chose a policy since the last client
	// switch: switching clients then keeps it.
	policyPicked bool
	// pending are the servers reconnecting for the switch, by label;
	// reconnected and of count how many did, of how many servers.
	pending         map[string]bool
	reconnected, of int
	// protocol is the revision forced on every server (protocol.go), ""
	// for each handshake's own.
	protocol string
}

func newClientSwitch() clientSwitch {
	return clientSwitch{all: model.Clients(), at: -1}
}

// active is the client profile switched to; ok is false for mcplens as
// itself.
func (c *clientSwitch) active() (model.Client, bool) {
	if c.at < 0 {
		return model.Client{}, false
	}
	return c.all[c.at], true
}

// setClient names the client profile the servers were connected as
// (NAME@VERSION) in the header; "" names none: mcplens connected as itself.
// why says how it was chosen when the user did not choose it ("the config
// is in vscode's format; ..."), said once in the help screen and the
// report; c and C cycle on from this profile.
func (m *Model) setClient(key, why string) {
	m.client, m.clientWhy = key, why
	m.clients.at = -1
	for i, c := range m.clients.all {
		if c.Key() == key {
			m.clients.at = i
		}
	}
}

// cycleClient switches to the next client profile (step 1) or the
// previous (-1): the servers whose handshake differs from the one they were
// connected with are connected again, and the policy becomes the client's
// unless p picked one since the last switch.
func (m *Model) cycleClient(step int) {
	cs := &m.clients
	n := len(cs.all) + 1
	cs.at = (cs.at+1+step+n)%n - 1
	c, ok := cs.active()
	h := model.NeutralHandshake()
	m.client, m.clientWhy = "", ""
	if ok {
		h, m.client = c.Handshake, c.Key()
		if !cs.policyPicked {
			m.setPolicy(c.Policy)
		}
	}
	cs.policyPicked = false
	cs.pending = map[string]bool{}
	labels := m.live.labels()
	cs.reconnected, cs.of = 0, len(labels)
	r := m.can.reconnect
	for _, label := range labels {
		if r != nil && r.Reconnect(label, h) {
			cs.pending[label] = true
			cs.reconnected++
		}
	}
}

// settled notes that a server finished (re)connecting.
func (c *clientSwitch) settled(label string) { delete(c.pending, label) }

// status is the footer's note on the last client switch, "" before any.
func (m *Model) clientStatus() string {
	cs := &m.clients
	if cs.pending == nil {
		return ""
	}
	who := m.client
	if who == "" {
		who = "mcplens"
	}
	s := m.c.styles
	if len(cs.pending) > 0 {
		return s.WarnText.Render(fmt.Sprintf("reconnecting %d of %d servers for %s", cs.reconnected, cs.of, model.Sanitize(who)))
	}
	return s.Muted.Render(fmt.Sprintf("%d of %d servers reconnected for %s", cs.reconnected, cs.of, model.Sanitize(who)))
}
