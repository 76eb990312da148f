package mcpsession

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// maxTTL bounds a cache hint's ttlMs as kept: a server may send any
// integer; a day says "long" as well as any more.
const maxTTL = 24 * time.Hour

// A CacheHint is the caching hints of a list result of the stateless
// revisions (2026-07-28): how long the result stays fresh (ttlMs) and who
// may share it (cacheScope). A result without them is stale at once.
type CacheHint struct {
	// Sent says the result carried a ttlMs; the zero hint is "none".
	Sent bool
	// TTL is ttlMs, a negative one taken as 0, at most maxTTL.
	TTL time.Duration
	// Scope is "public", "private", or "" when absent or another value.
	Scope string
	// At is when the result was received: it is fresh until At+TTL.
	At time.Time
}

// CacheHintOf reads the hints of a list result received at at. Anything
// but an integer ttlMs is no hint; anything but "public" or "private" is
// no scope.
func CacheHintOf(result json.RawMessage, at time.Time) CacheHint {
	var v [2][]byte
	jsonx.Members(result, []string{"ttlMs", "cacheScope"}, v[:])
	h := CacheHint{At: at}
	var ttl float64
	if v[0] != nil && json.Unmarshal(v[0], &ttl) == nil {
		h.Sent = true
		switch ms := time.Duration(ttl) * time.Millisecond; {
		case ttl <= 0:
		case ttl >= float64(maxTTL/time.Millisecond):
			h.TTL = maxTTL
		default:
			h.TTL = ms
		}
	}
	switch string(v[1]) {
	case `"public"`:
		h.Scope = "public"
	case `"private"`:
		h.Scope = "private"
	}
	return h
}

// Fresh reports whether a result with the hint may still be used at now,
// not asked again.
func (h CacheHint) Fresh(now time.Time) bool {
	return h.Sent && now.Before(h.At.Add(h.TTL))
}

// Stale reports when a result with the hint goes stale, and whether it
// ever was fresh: a result without hints, or with ttlMs 0, never was.
func (h CacheHint) Stale() (time.Time, bool) {
	return h.At.Add(h.TTL), h.Sent && h.TTL > 0
}

// String says the hint as a detail line: "fresh for 5m0s after listing,
// public; listed again once stale", "no caching hints: stale at once".
func (h CacheHint) String() string {
	if !h.Sent {
		return "no caching hints: stale at once"
	}
	s := "stale at once (ttlMs 0)"
	if h.TTL > 0 {
		s = fmt.Sprintf("fresh for %s after listing", h.TTL)
	}
	if h.Scope != "" {
		s += ", " + h.Scope
	}
	if h.TTL > 0 {
		s += "; listed again once stale"
	}
	return s
}
