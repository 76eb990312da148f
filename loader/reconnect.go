package loader

import (
	"reflect"
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Reconnect connects to the server of the label again, sending h: its
// connection ends (a call running on it fails) and a new one starts,
// announced by a Connecting event as the first was. It reports whether it
// did so: not when h is the handshake the server was connected with, as far
// as its transport carries it (headers go only over HTTP), nor for an
// unknown label, nor after Close. The server's frame log, stderr tail and log
// messages carry on across the reconnect, and the log level set on it
// (SetLogLevel) is set again once it is Ready. Reconnect does not wait for
// the old connection to end.
func (s *Session) Reconnect(label string, h model.Handshake) bool {
	return s.reconnect(label, h, false)
}

// reconnect is Reconnect; again connects even with the same handshake.
func (s *Session) reconnect(label string, h model.Handshake, again bool) bool {
	if h.ClientInfo.Name == "" {
		h = model.NeutralHandshake()
	}
	h = s.handshakeFor(h)
	s.mu.Lock()
	old := s.byName[label]
	if old == nil || s.closed || (!again && sameHandshake(old.hs, h, old.remote())) {
		s.mu.Unlock()
		return false
	}
	c := newConn(s, old.spec)
	c.hs, c.log, c.stderr, c.timeout = h, old.log, old.stderr, old.timeout
	c.logs = old.logs
	c.deadline = time.Now().Add(c.timeout)
	for i := range s.conns {
		if s.conns[i] == old {
			s.conns[i] = c
		}
	}
	s.byName[label] = c
	old.closing.Store(true) // what the old connection does next is not reported
	s.wg.Add(1)             // under mu: Close waits for it
	s.mu.Unlock()

	s.emit(mcpsession.Event{Server: label, State: mcpsession.Connecting, Deadline: c.deadline, Transport: c.transport()})
	go func() {
		defer s.wg.Done()
		old.shutdown()
		select { // wakes its relisting loop, which sees it is no longer Ready
		case old.relist <- struct{}{}:
		default:
		}
		if s.ctx.Err() == nil {
			c.connect()
		}
		if level := c.logs.levelSet(); level != "" && c.isReady() {
			_ = c.setLevel(level) // a server that no longer declares logging is not asked
		}
	}()
	return true
}

// isReady reports whether the connection is Ready.
func (c *conn) isReady() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == mcpsession.Ready
}

// remote reports whether the server is reached over HTTP.
func (c *conn) remote() bool {
	return c.spec.Transport == config.TransportHTTP || c.spec.Transport == config.TransportSSE
}

// sameHandshake reports whether a and b tell a server the same, over a
// transport that carries headers (remote) or not.
func sameHandshake(a, b model.Handshake, remote bool) bool {
	if !remote || len(a.Headers)+len(b.Headers) == 0 {
		a.Headers, b.Headers = nil, nil
	}
	return reflect.DeepEqual(a, b)
}
