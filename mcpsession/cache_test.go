package mcpsession_test

import (
	"testing"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

func TestCacheHintOf(t *testing.T) {
	at := time.Date(2026, 7, 28, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, result string
		want         string
		fresh        time.Duration // a moment after at that is still fresh, or -1
	}{
		{"five minutes public", `{"tools":[],"ttlMs":300000,"cacheScope":"public"}`, "fresh for 5m0s after listing, public; listed again once stale", 4 * time.Minute},
		{"private", `{"ttlMs":1000,"cacheScope":"private"}`, "fresh for 1s after listing, private; listed again once stale", 0},
		{"zero", `{"ttlMs":0}`, "stale at once (ttlMs 0)", -1},
		{"negative is zero", `{"ttlMs":-5}`, "stale at once (ttlMs 0)", -1},
		{"absent", `{"tools":[]}`, "no caching hints: stale at once", -1},
		{"not a number", `{"ttlMs":"300000"}`, "no caching hints: stale at once", -1},
		{"huge is a day", `{"ttlMs":1e300}`, "fresh for 24h0m0s after listing; listed again once stale", 23 * time.Hour},
		{"unknown scope", `{"ttlMs":1000,"cacheScope":"\u001b[2Jshared"}`, "fresh for 1s after listing; listed again once stale", 0},
		{"not an object", `[1,2]`, "no caching hints: stale at once", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mcpsession.CacheHintOf([]byte(tt.result), at)
			if got := h.String(); got != tt.want {
				t.Errorf("CacheHintOf(%s) = %q, want %q", tt.result, got, tt.want)
			}
			if tt.fresh >= 0 && !h.Fresh(at.Add(tt.fresh)) {
				t.Errorf("CacheHintOf(%s) is stale %s after listing, want fresh", tt.result, tt.fresh)
			}
			if h.Fresh(at.Add(25 * time.Hour)) {
				t.Errorf("CacheHintOf(%s) is fresh a day later", tt.result)
			}
		})
	}
}
