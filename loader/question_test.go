package loader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
)

// TestQuestionLimit: a question a server asks is handed to Ask while its
// params are within Limits.Question; over it, the server gets a JSON-RPC
// error at once, nobody is asked, and the refusal is among the server's
// faults. The neighbours notice nothing.
func TestQuestionLimit(t *testing.T) {
	for _, tt := range []struct {
		name, mode, size string
		asked            bool
	}{
		{"sampling within", "big-sampling", "1048576", true},
		{"sampling over", "big-sampling", "3145728", false},
		{"elicitation over", "big-elicitation", "3145728", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			record := filepath.Join(t.TempDir(), "record")
			asked := make(chan loader.Question, 1)
			ask := func(_ context.Context, q loader.Question) loader.Reply {
				asked <- q
				return loader.Reply{} // unanswered: cancelled, or rejected
			}
			opts := loader.Options{Handshake: mustClient(t, "vscode").Handshake, Answers: loader.Answers{Ask: ask},
				Limits: loader.Limits{Question: 2 << 20}}
			cfg, s := withHostile(t, opts, tt.mode, "-size", tt.size, "-record", record)
			_, last := settle(t, s, cfg)
			neighboursFine(t, s, last)

			answer := func() string {
				b, _ := os.ReadFile(record)
				_, a, _ := strings.Cut(string(b), "answer ")
				return a
			}
			until(t, "h's question answered", func() bool { return answer() != "" })
			if tt.asked {
				select {
				case q := <-asked:
					if q.Server != "h" || len(q.Params) < 1<<20 {
						t.Errorf("asked %s a question of %d bytes, want h's of over 1 MiB", q.Server, len(q.Params))
					}
				case <-time.After(20 * time.Second):
					t.Fatal("the question within the limit was not asked")
				}
				if a := answer(); !strings.Contains(a, `"code":-1`) {
					t.Errorf("h's unanswered sampling was answered %s, want rejected", a)
				}
				return
			}
			if a := answer(); !strings.Contains(a, `"code":-32602`) || !strings.Contains(a, "request too large") {
				t.Errorf("h's question over the limit was answered %s, want -32602 request too large", a)
			}
			if len(asked) > 0 {
				t.Error("a question over the limit was asked")
			}
			ev := last["h"] // refused before h was ready, or after
			until(t, "h's finding", func() bool {
				select {
				case e := <-s.Events():
					if e.Server == "h" && !e.Frames {
						ev = e
					}
				default:
				}
				return strings.Contains(protocolFindings(ev), "question limit")
			})
			t.Logf("h's finding: %s", protocolFindings(ev))
			if f := protocolFindings(ev); !strings.Contains(f, "is over the 2MiB question limit") || !strings.Contains(f, "--limit question=SIZE") || !strings.Contains(f, "answered with an error") {
				t.Errorf("h's finding = %q, want the limit, how to raise it, and what was done", f)
			}
		})
	}
}

// until polls cond until it holds, failing the test after 20s (waitFor
// is the internal tests').
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after 20s for %s", what)
		}
	}
}
