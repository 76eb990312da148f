package ui

import (
	"errors"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A loginError is a server that refused a request for want of a login or
// of scope (oauth.NeedsLoginError, which the interface does not import).
type loginError interface {
	error
	NeedsLogin() bool
}

// stepUp notes a call the server refused for want of a login or of scope
// (a 403 insufficient_scope mid-session): the interface never logs in on
// its own, it asks; L logs in again, asking for the scopes held and those
// the server asked for, and the server connects again.
func (m *Model) stepUp(msg callDoneMsg) {
	var le loginError
	if m.login == nil || !errors.As(msg.err, &le) || !le.NeedsLogin() {
		return
	}
	s := m.live
	if s.stepUps == nil {
		s.stepUps = map[string]string{}
	}
	s.stepUps[msg.route.Server] = model.Sanitize(le.Error())
	delete(s.logins, msg.route.Server) // a login that ended before: this is a new one
	s.layout()
	m.servers.refresh()
}

// waitsLogin reports whether server i waits for a login L can start: it
// needs one to connect, or refused a call for want of scope.
func (s *liveState) waitsLogin(i int) bool {
	return s.a.Servers[i].Status == surface.NeedsLogin || s.stepUps[s.label(i)] != ""
}

// stepUpLines are the lines under a connected server that refused a call
// for want of scope.
func (s *liveState) stepUpLines(i int) {
	said := s.stepUps[s.label(i)]
	if said == "" || s.a.Servers[i].Status == surface.NeedsLogin {
		return
	}
	s.lines = append(s.lines, line{kind: lineError, server: i, text: "a call was refused: " + said})
	s.loginLines(i)
}
