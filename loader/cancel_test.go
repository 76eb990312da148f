package loader_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// TestCancelReason: a call whose context ends with a cause tells the
// server that cause as the reason of its notifications/cancelled, not
// "context canceled", and the call's error still is context.Canceled.
func TestCancelReason(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "slow-call")
	if _, last := settle(t, s, cfg); last["h"].State != mcpsession.Ready {
		t.Fatalf("h: %s (%s), want ready", last["h"].State, last["h"].Err)
	}
	started := make(chan struct{}, 1)
	ctx, cancel := context.WithCancelCause(loader.WithProgress(context.Background(), func(loader.Progress) {
		select {
		case started <- struct{}{}:
		default:
		}
	}))
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "h", "slow", nil)
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(settleTimeout):
		t.Fatal("no progress from the slow call")
	}
	const why = "interrupted by the user (Ctrl+C)"
	cancel(errors.New(why))
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Call error %v, want context.Canceled", err)
	}
	var reason string
	for deadline := time.Now().Add(settleTimeout); reason == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, f := range s.FrameLog("h").Frames() {
			var n struct {
				Method string
				Params struct{ Reason string }
			}
			if f.Dir == mcpsession.Out && json.Unmarshal(f.Bytes, &n) == nil && n.Method == "notifications/cancelled" {
				reason = n.Params.Reason
			}
		}
	}
	if reason != why {
		t.Errorf("notifications/cancelled reason %q, want %q", reason, why)
	}
}
