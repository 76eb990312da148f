package loader

import "github.com/mcplens/mcplens/mcpsession"

// Restart, Disconnect and Connect act on one server and leave the others
// alone. They are built on reconnect: the server's connection is replaced
// by a new one that keeps its frame log, stderr tail, log messages and
// handshake.

// Restart stops the server of the label (its connection ends, a stdio
// child is stopped) and starts it again with the handshake it had,
// listing it anew, announced by a Connecting event. A disconnected or
// failed server is started. It reports whether it did so: not for an
// unknown label, nor after Close.
func (s *Session) Restart(label string) bool {
	c := s.conn(label)
	if c == nil {
		return false
	}
	return s.reconnect(label, c.hs, true)
}

// Connect starts the server of the label when it is not connected (it was
// disconnected, or it failed), as Restart does; it reports whether it did.
func (s *Session) Connect(label string) bool {
	c := s.conn(label)
	if c == nil {
		return false
	}
	c.mu.Lock()
	state := c.state
	c.mu.Unlock()
	if state != mcpsession.Disconnected && state != mcpsession.Failed {
		return false
	}
	return s.reconnect(label, c.hs, true)
}

// Disconnect stops the server of the label and keeps it stopped, until
// Connect or Restart: a Disconnected event says so at once, and its child
// is stopped in the background (a call running on it fails). It reports
// whether it did so: not for an unknown label, a server disconnected
// already, nor after Close.
func (s *Session) Disconnect(label string) bool {
	s.mu.Lock()
	old := s.byName[label]
	if old == nil || s.closed {
		s.mu.Unlock()
		return false
	}
	old.mu.Lock()
	was := old.state
	old.mu.Unlock()
	if was == mcpsession.Disconnected {
		s.mu.Unlock()
		return false
	}
	c := newConn(s, old.spec)
	c.hs, c.log, c.stderr, c.timeout, c.logs = old.hs, old.log, old.stderr, old.timeout, old.logs
	c.state = mcpsession.Disconnected
	close(c.attempt) // it makes no attempt
	for i := range s.conns {
		if s.conns[i] == old {
			s.conns[i] = c
		}
	}
	s.byName[label] = c
	old.closing.Store(true) // what the old connection does next is not reported
	s.wg.Add(1)             // under mu: Close waits for it
	s.mu.Unlock()

	s.emit(mcpsession.Event{Server: label, State: mcpsession.Disconnected})
	go func() {
		defer s.wg.Done()
		old.shutdown()
		select { // wakes its relisting loop, which sees it is no longer Ready
		case old.relist <- struct{}{}:
		default:
		}
	}()
	return true
}
