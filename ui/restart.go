package ui

import (
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// restartKey restarts the selected row's server (x), or disconnects or
// connects it (X), saying in the footer what it did.
func (m *Model) restartKey(restart bool) {
	r, ok := m.selected()
	i := r.server
	if m.view == viewServers {
		i, ok = m.servers.server()
	}
	b := m.can.restart
	switch {
	case b == nil:
		m.say("this view's servers are not mcplens's to restart")
		return
	case !ok || i < 0 || i >= len(m.live.snap.Servers):
		m.say("no server selected")
		return
	}
	label := m.live.label(i)
	name := model.Sanitize(label)
	switch status := m.live.a.Servers[i].Status; {
	case restart && b.Restart(label):
		m.say("restarting " + name + ": stopped, starting it again")
	case restart:
		m.say(name + " cannot be restarted now (mcplens is closing)")
	case status == surface.Disconnected || status == surface.Failed || status == surface.NeedsLogin:
		if b.Connect(label) {
			m.say("connecting " + name)
		} else {
			m.say(name + " cannot be connected now")
		}
	case b.Disconnect(label):
		m.say("disconnected " + name + ": its tools leave the registry; X connects it again")
	default:
		m.say(name + " cannot be disconnected now")
	}
}
