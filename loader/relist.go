package loader

import (
	"bytes"
	"context"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// relistPace bounds how long a relisting waits after the last one: as long
// as that one took, past relistDelay, so that a server flooding
// tools/list_changed with large lists has mcplens listing at most about
// half the time (conn.relistLoop).
const relistPace = time.Second

// sameTools reports whether a and b are the same rows, byte for byte, kept
// or withheld alike.
func sameTools(a, b []model.Tool) bool {
	return slices.EqualFunc(a, b, func(x, y model.Tool) bool {
		return x.FilteredBy == y.FilteredBy && bytes.Equal(x.Raw, y.Raw)
	})
}

// onNotification runs on mcp-go's read loop, which must not block (it is
// what delivers the answer to a relisting): it only flags the change.
func (c *conn) onNotification(n mcp.JSONRPCNotification) {
	switch n.Method {
	case mcp.MethodNotificationSubscriptionsAcknowledged:
		// The listen stream's acknowledgement is heard as a change, once
		// a stream (listen): a change between the first listing and the
		// stream's opening is not notified, so the tools are listed once
		// more (nothing is reported when the list is the same). A server
		// acknowledging again and again is not listed again for it.
		if c.acked.CompareAndSwap(false, true) {
			c.flagRelist()
		}
	case string(mcp.MethodNotificationToolsListChanged):
		c.flagRelist()
	case string(mcp.MethodNotificationProgress):
		c.onProgress(n.Params.AdditionalFields)
	}
}

// flagRelist has relistLoop list the tools again.
func (c *conn) flagRelist() {
	select {
	case c.relist <- struct{}{}:
	default:
	}
}

// newFinding runs when the monitor sees a new kind of protocol fault. A
// Ready server's event is sent again with it; a connecting server's
// Ready or Failed event will carry it.
func (c *conn) newFinding() {
	c.mu.Lock()
	if c.state != mcpsession.Ready || c.closing.Load() {
		c.mu.Unlock()
		return
	}
	c.ready.Findings = c.monitor.list()
	ev := c.ready
	c.mu.Unlock()
	c.s.emit(ev)
}

// staleFloor is the shortest time between two listings asked because the
// last went stale: a server's ttlMs of 1 has mcplens listing every two
// seconds, not all the time.
const staleFloor = 2 * time.Second

// staleTimer fires when the last tools/list goes stale, by its caching
// hints, and at least staleFloor after the last listing began (last; a
// listing that failed leaves the hints of the one before); a list with no
// hints or ttlMs 0 has none (nil), and is listed again on list_changed
// only.
func (c *conn) staleTimer(last time.Time) *time.Timer {
	h := c.lister.cacheHint()
	at, ok := h.Stale()
	if !ok {
		return nil
	}
	wait := max(time.Until(at), time.Until(h.At.Add(staleFloor)), time.Until(last.Add(staleFloor)))
	return time.NewTimer(wait)
}

// relistLoop lists the tools again after each (burst of) list_changed, and
// when the last list goes stale by its caching hints (as a client that
// honours them asks again), and reports the new list as a Ready event,
// unless it is the list already reported, byte for byte. Listings are
// paced: after one that took longer than relistDelay, the next waits as
// long as it took (up to relistPace), so that a server flooding
// list_changed with large lists has mcplens listing at most about half
// the time. Close ends a listing in progress (it cancels s.ctx first).
func (c *conn) relistLoop() {
	wait := relistDelay
	var last time.Time
	for {
		var stale <-chan time.Time
		timer := c.staleTimer(last)
		if timer != nil {
			stale = timer.C
		}
		select {
		case <-c.s.ctx.Done():
			return
		case <-c.relist:
		case <-stale:
		}
		if timer != nil {
			timer.Stop()
		}
		select {
		case <-c.s.ctx.Done():
			return
		case <-time.After(wait):
		}
		select { // notifications during the delay are covered by this listing
		case <-c.relist:
		default:
		}
		c.mu.Lock()
		ready, protocol := c.state == mcpsession.Ready, c.ready.Protocol
		c.mu.Unlock()
		if !ready {
			return
		}

		start := time.Now()
		last = start
		ctx, cancel := context.WithTimeout(c.s.ctx, c.timeout)
		tools, note, err := c.lister.list(ctx)
		if err == nil {
			c.monitor.listed(note)
			c.spec.MarkFiltered(tools)
			c.markRejected(tools, protocol)
		}
		cancel()
		wait = min(max(relistDelay, time.Since(start)), relistPace)
		if c.closing.Load() {
			return
		}
		c.mu.Lock()
		if c.state != mcpsession.Ready {
			c.mu.Unlock()
			return
		}
		if err == nil && note == c.ready.Err && sameTools(tools, c.ready.Tools) {
			c.mu.Unlock() // nothing new: a new protocol fault has its own event (newFinding)
			continue
		}
		ev := c.ready
		ev.Findings = c.monitor.list()
		if err != nil {
			ev.Err = describeErr("relisting tools", err, c.timeout) + "; showing the previous list"
		} else {
			ev.Tools, ev.Err = tools, c.readyNote(note)
			ev.Facts.ToolsCache = c.lister.cacheHint()
		}
		c.ready = ev
		c.mu.Unlock()
		c.s.emit(ev)
	}
}
