package loader_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// A server flooding tools/list_changed while listing the same tools every
// time is listed again and again, and none of those listings is reported:
// a Ready event says something changed, and nothing did.
func TestRelistingUnchangedNotReported(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "list-changed-flood", "-same")
	_, last := settle(t, s, cfg)
	if ev := last["h"]; ev.State != mcpsession.Ready {
		t.Fatalf("h: %s (%s), want ready", ev.State, ev.Err)
	}
	lists := func() int {
		n := 0
		for _, f := range s.FrameLog("h").Frames() {
			if f.Dir == mcpsession.Out && strings.Contains(string(f.Bytes), `"method":"tools/list"`) {
				n++
			}
		}
		return n
	}
	readies := 0
	deadline := time.Now().Add(30 * time.Second)
	for lists() < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("h was listed %d times in 30s of flood, want 5", lists())
		}
		select {
		case ev := <-s.Events():
			if ev.Server == "h" && ev.State == mcpsession.Ready && !ev.Frames {
				readies++
			}
		case <-time.After(20 * time.Millisecond):
		}
	}
	if readies > 0 {
		t.Errorf("%d Ready events for %d listings of the same tools, want none", readies, lists()-1)
	}
}
