package loader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// bigArgs are arguments of 1 MB: more than a pipe holds, so writing them to
// a server that does not read blocks.
func bigArgs() json.RawMessage {
	return json.RawMessage(`{"text":"` + strings.Repeat("x", 1<<20) + `"}`)
}

// callAsync starts a call and returns where its outcome arrives.
func callAsync(ctx context.Context, s *loader.Session, server string) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, server, "echo", bigArgs())
		done <- err
	}()
	return done
}

// callReturns waits for the call's outcome, failing the test when it has
// not returned after a deadline far past the call's own.
func callReturns(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the call was still blocked 30s after its context ended")
	}
	return nil
}

// requestWritten waits until the tools/call request is in the wire log,
// which it enters just before it is written.
func requestWritten(t *testing.T, s *loader.Session, server string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		for _, f := range s.FrameLog(server).Frames() {
			if f.Dir == mcpsession.Out && bytes.Contains(f.Bytes, []byte(`"tools/call"`)) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the tools/call request was never written")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// failedWith waits for server's Failed event and returns its error.
func failedWith(t *testing.T, s *loader.Session, server string) string {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case ev := <-s.Events():
			if ev.Server == server && ev.State == mcpsession.Failed {
				return ev.Err
			}
		case <-deadline:
			t.Fatalf("%s was not reported failed", server)
		}
	}
}

// TestCallToServerThatStopsReading checks that a call whose request a
// server does not read ends when the call's context does, with ErrStalled,
// whether the context reaches its deadline or is cancelled, and that the
// server is then reported failed while its neighbours keep working.
func TestCallToServerThatStopsReading(t *testing.T) {
	for _, how := range []string{"deadline", "cancel"} {
		t.Run(how, func(t *testing.T) {
			cfg, s := withHostile(t, loader.Options{}, "stop-reading")
			_, last := settle(t, s, cfg)
			if last["h"].State != mcpsession.Ready {
				t.Fatalf("h: %s (%s), want ready", last["h"].State, last["h"].Err)
			}
			var ctx context.Context
			var cancel context.CancelFunc
			if how == "deadline" {
				ctx, cancel = context.WithTimeout(context.Background(), time.Second)
			} else {
				ctx, cancel = context.WithCancel(context.Background())
			}
			defer cancel()
			done := callAsync(ctx, s, "h")
			requestWritten(t, s, "h")
			if how == "cancel" {
				cancel()
			}
			err := callReturns(t, done)
			if !errors.Is(err, loader.ErrStalled) {
				t.Fatalf("call error %v, want one wrapping ErrStalled", err)
			}
			if msg := failedWith(t, s, "h"); !strings.Contains(msg, "stopped reading its stdin") {
				t.Errorf("h failed with %q, want it to say it stopped reading its stdin", msg)
			}
			neighboursFine(t, s, last)
		})
	}
}
