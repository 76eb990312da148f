package loader_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
)

// TestNoGoroutineLeak connects and closes, again and again, a config of
// demo servers and hostile ones (one that exits mid-call, one that never
// answers, one that ignores shutdown, one that floods, one whose call is
// cancelled) and checks that no goroutine is left behind.
func TestNoGoroutineLeak(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	for range 3 {
		silent := hostile.Spec(t, "silent", "silent-list")
		silent.Timeout = 500 * time.Millisecond
		cfg := demoConfig()
		cfg.Servers = append(cfg.Servers[:2],
			hostile.Spec(t, "exit-call", "exit-call"),
			silent,
			hostile.Spec(t, "stubborn", "stubborn"),
			hostile.Spec(t, "flood", "list-changed-flood"),
			hostile.Spec(t, "slow", "slow-call"),
			hostile.Spec(t, "junk", "junk"),
		)
		s := loader.Open(cfg, loader.Options{})
		settle(t, s, cfg)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		s.Call(ctx, "slow", "slow", nil)
		cancel()
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		s.Call(ctx, "exit-call", "echo", nil)
		cancel()
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		for range s.Events() {
		}
	}
}
