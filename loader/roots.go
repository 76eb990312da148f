package loader

import (
	"context"
	"slices"
	"sync"
	"time"
)

// rootsNotifyTimeout bounds the sending of one notifications/roots/list_changed.
const rootsNotifyTimeout = 5 * time.Second

// A rootSet is the folders roots/list is answered with: Answers.Roots
// until SetRoots changes them.
type rootSet struct {
	mu   sync.Mutex
	dirs []string
	set  bool
}

// Roots returns the folders roots/list is answered with now.
func (s *Session) Roots() []string {
	s.roots.mu.Lock()
	defer s.roots.mu.Unlock()
	if s.roots.set {
		return slices.Clone(s.roots.dirs)
	}
	return slices.Clone(s.opts.Answers.Roots)
}

// SetRoots changes the folders roots/list is answered with (absolute
// paths) and, when they differ from the ones before, tells every Ready
// server whose handshake declares roots with listChanged, with
// notifications/roots/list_changed, as that client does; a handshake
// without listChanged promises no notification, and its servers learn the
// new roots when they next ask. It returns the servers told.
func (s *Session) SetRoots(dirs []string) []string {
	old := s.Roots()
	s.roots.mu.Lock()
	s.roots.dirs, s.roots.set = slices.Clone(dirs), true
	s.roots.mu.Unlock()
	if slices.Equal(old, dirs) {
		return nil
	}
	s.mu.RLock()
	conns := slices.Clone(s.conns)
	s.mu.RUnlock()
	var told []string
	for _, c := range conns {
		if r := c.hs.Capabilities.Roots; r == nil || !r.ListChanged || !c.isReady() {
			continue
		}
		c.mu.Lock()
		cl := c.client
		c.mu.Unlock()
		ctx, cancel := context.WithTimeout(s.ctx, rootsNotifyTimeout)
		err := cl.RootListChanges(ctx)
		cancel()
		if err == nil {
			told = append(told, c.spec.Label)
		}
	}
	return told
}
