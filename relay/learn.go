package relay

import (
	"sync"
	"sync/atomic"

	"github.com/mcplens/mcplens/recording"
)

// A relay learns secrets as it passes them: the value of a header the
// client's config declared (X-Custom-Creds), its Authorization and
// Cookie, a cookie the server sets. Each is masked in every frame
// recorded after, a body that echoes it included. The headers are handed
// over when the proxy reads them, before the request goes on and so
// before any byte of its answer reaches the copier.

// maxPendingLearn bounds the headers waiting for the copier's goroutine to
// learn them; past it, a request's headers are still masked in its own
// record, but not learned.
const maxPendingLearn = 64

// learning holds the headers handed over and not yet learned.
type learning struct {
	mu      sync.Mutex
	pending []*recording.HTTP
	any     atomic.Bool
}

// learn hands over m's headers for the copier to learn.
func (c *Copier) learn(m *recording.HTTP) {
	if c == nil || m == nil {
		return
	}
	c.learning.mu.Lock()
	if len(c.learning.pending) < maxPendingLearn {
		c.learning.pending = append(c.learning.pending, m)
		c.learning.any.Store(true)
	}
	c.learning.mu.Unlock()
}

// learnPending has the encoder learn the headers handed over so far; the
// copier's goroutine calls it before encoding each chunk.
func (c *Copier) learnPending() {
	if !c.learning.any.Load() {
		return
	}
	c.learning.mu.Lock()
	pending := c.learning.pending
	c.learning.pending = nil
	c.learning.any.Store(false)
	c.learning.mu.Unlock()
	for _, m := range pending {
		c.enc.learn(m)
	}
}
