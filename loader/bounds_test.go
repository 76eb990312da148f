package loader_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// The tests below run the hostile servers that flood what mcplens reads
// from them (a line, the pages of a listing, a call's result) or answer in
// a form the protocol must refuse, for real over stdio. Limits are set low
// so the floods stay small; the process-level memory figures are in the
// mcplens package's bounds tests.

// patient is a server timeout no test waits for: a server that fails
// within settleTimeout did not fail by timing out.
const patient = 10 * time.Minute

// withHostilePatient opens alpha, beta and h in mode, h with a timeout no
// test waits for.
func withHostilePatient(t *testing.T, opts loader.Options, mode string, flags ...string) (*config.Config, *loader.Session) {
	t.Helper()
	cfg := demoConfig()
	h := hostile.Spec(t, "h", mode, flags...)
	h.Timeout = patient
	cfg.Servers = append(cfg.Servers[:2], h)
	return cfg, open(t, cfg, opts)
}

// TestHostileLineOverLimit: a line of stdout over the line limit fails the
// server at once with the phase and the limit's name, the other servers
// go on, and the server's process is stopped.
func TestHostileLineOverLimit(t *testing.T) {
	limits := loader.Limits{Line: 1 << 20}
	const over = "a line of stdout is over the 1MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"
	for _, tt := range []struct {
		mode  string
		flags []string
		err   string
	}{
		{"no-newline", nil, "initialize: " + over},
		{"huge-line", []string{"-size", "8000000"}, "listing tools: " + over},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			cfg, s := withHostilePatient(t, loader.Options{Limits: limits}, tt.mode, tt.flags...)
			_, last := settle(t, s, cfg)
			if ev := last["h"]; ev.State != mcpsession.Failed || ev.Err != tt.err {
				t.Errorf("h: %s %q, want failed %q", ev.State, ev.Err, tt.err)
			}
			frames := s.FrameLog("h").Frames()
			if f := frames[len(frames)-1]; f.Dir != mcpsession.In || f.Size <= 1<<20 || len(f.Bytes) > mcpsession.MaxFrameBytes || !strings.Contains(f.Problem, "over the 1MiB line limit") {
				t.Errorf("last frame: %s, %d of %d bytes, problem %q; want the long line's start, marked", f.Dir, len(f.Bytes), f.Size, f.Problem)
			}
			neighboursFine(t, s, last)
			waitGone(t, s.Pid("h"))
		})
	}
}

// waitGone waits until pid is no longer a live process.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); processLives(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("process %d still runs after its server failed", pid)
			return
		}
	}
}

// TestHostileListingOverLimit: pages that together go over the listing
// limit, or one page over the page limit, fail the server naming the
// limit; nothing of the listing is kept.
func TestHostileListingOverLimit(t *testing.T) {
	for _, tt := range []struct {
		name   string
		limits loader.Limits
		err    string
	}{
		{"listing", loader.Limits{Listing: 1 << 20},
			"listing tools: tools/list page 4: the listing is over the 1MiB listing limit; raise it with --limit listing=SIZE or MCPLENS_LIMIT_LISTING"},
		{"page", loader.Limits{Page: 256 << 10},
			"listing tools: tools/list: the page is over the 256KiB page limit; raise it with --limit page=SIZE or MCPLENS_LIMIT_PAGE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, s := withHostilePatient(t, loader.Options{Limits: tt.limits}, "huge-pages", "-size", "300000", "-pages", "40")
			_, last := settle(t, s, cfg)
			if ev := last["h"]; ev.State != mcpsession.Failed || ev.Err != tt.err || len(ev.Tools) != 0 {
				t.Errorf("h: %s %q with %d tools, want failed %q", ev.State, ev.Err, len(ev.Tools), tt.err)
			}
			neighboursFine(t, s, last)
		})
	}
	t.Run("within", func(t *testing.T) {
		cfg, s := withHostilePatient(t, loader.Options{}, "huge-pages", "-size", "300000", "-pages", "5")
		_, last := settle(t, s, cfg)
		if ev := last["h"]; ev.State != mcpsession.Ready || len(ev.Tools) != 5 {
			t.Errorf("h: %s %q with %d tools, want ready with the 5 listed", ev.State, ev.Err, len(ev.Tools))
		}
	})
}

// TestHostileCallOverLimit: a call whose answer's line is over the line
// limit ends at once in an error naming the limit, whatever its isError,
// with the start of the answer cut and marked; the server fails, its
// stream out of step. A result over the result limit fails the call only.
func TestHostileCallOverLimit(t *testing.T) {
	for _, tt := range []struct {
		mode   string
		limits loader.Limits
		err    string
		fails  bool
	}{
		{"huge-result", loader.Limits{Line: 1 << 20}, "a line of stdout is over the 1MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE", true},
		{"huge-error-result", loader.Limits{Line: 1 << 20}, "a line of stdout is over the 1MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE", true},
		{"huge-result", loader.Limits{Result: 1 << 20}, "the result is over the 1MiB result limit; raise it with --limit result=SIZE or MCPLENS_LIMIT_RESULT", false},
	} {
		t.Run(tt.mode+"/"+tt.limits.String(), func(t *testing.T) {
			cfg, s := withHostilePatient(t, loader.Options{Limits: tt.limits}, tt.mode, "-size", "3000000")
			_, last := settle(t, s, cfg)
			if ev := last["h"]; ev.State != mcpsession.Ready {
				t.Fatalf("h: %s %q, want ready until the call", ev.State, ev.Err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), patient)
			defer cancel()
			res, err := s.Call(ctx, "h", "echo", nil)
			if want := `calling "echo" on h: ` + tt.err; err == nil || err.Error() != want || !errors.Is(err, loader.ErrLimit) {
				t.Errorf("Call error %v, want %q", err, want)
			}
			if res.IsError || res.Result != nil || res.ResponseSize <= 1<<20 || len(res.Response) > mcpsession.MaxFrameBytes ||
				!strings.HasPrefix(string(res.Response), `{"jsonrpc":"2.0","id":`) {
				t.Errorf("call result: isError %v, result %d bytes, response %d of %d bytes; want no result and the answer's start, cut",
					res.IsError, len(res.Result), len(res.Response), res.ResponseSize)
			}
			if !tt.fails {
				if res, err := s.Call(ctx, "alpha", "request", nil); err != nil || res.IsError {
					t.Errorf("alpha after h's call: %v", err)
				}
				return
			}
			ev := nextState(t, s, settleTimeout)
			if ev.Server != "h" || ev.State != mcpsession.Failed || ev.Err != tt.err {
				t.Errorf("after the call: %s %s %q, want h failed %q", ev.Server, ev.State, ev.Err, tt.err)
			}
			neighboursFine(t, s, last)
		})
	}
}

// TestHostileRefusedAnswers: an answer the protocol cannot take (valid JSON
// nested past a decoder's depth, its numeric id as a string, inside a
// batch, a NaN) ends the request it answers at once, saying what came and
// why it was refused, rather than after the timeout: during the connect
// (initialize, tools/list) it fails the server; a call it fails.
func TestHostileRefusedAnswers(t *testing.T) {
	reasons := map[string]string{
		"deep-answer":  "it is not JSON: nested deeper than a JSON decoder reads (10000 levels), at byte ",
		"string-id":    `" is a string, and a response's id must be the request's, of the same type; received {"jsonrpc":"2.0","id":"`,
		"batch-answer": "it came inside a JSON-RPC batch (an array), which MCP does not use; received [{",
		"nan-answer":   "it is not JSON: invalid character 'N' looking for beginning of value, at byte ",
	}
	for _, mode := range []string{"deep-answer", "string-id", "batch-answer", "nan-answer"} {
		for _, on := range []string{"initialize", "tools/list", "tools/call"} {
			if mode == "string-id" && on == "tools/list" {
				continue // the lister's ids are strings that read as no number
			}
			t.Run(mode+"/"+on, func(t *testing.T) {
				cfg := &config.Config{Path: "refused"}
				h := hostile.Spec(t, "h", mode, "-on", on)
				h.Timeout = patient
				cfg.Servers = []config.ServerSpec{h}
				s := open(t, cfg, loader.Options{})
				_, last := settle(t, s, cfg)
				ev := last["h"]
				var got string
				switch on {
				case "tools/call":
					if ev.State != mcpsession.Ready {
						t.Fatalf("h: %s %q, want ready until the call", ev.State, ev.Err)
					}
					ctx, cancel := context.WithTimeout(context.Background(), patient)
					defer cancel()
					done := make(chan error, 1)
					go func() {
						_, err := s.Call(ctx, "h", "echo", nil)
						done <- err
					}()
					var err error
					select {
					case err = <-done:
					case <-time.After(settleTimeout):
						t.Fatalf("the call still waits after %s", settleTimeout)
					}
					var refused *loader.RefusedError
					if !errors.As(err, &refused) {
						t.Errorf("Call error %v, want a *RefusedError", err)
					}
					got = strings.TrimPrefix(err.Error(), `calling "echo" on h: `)
				default:
					phase := map[string]string{"initialize": "initialize", "tools/list": "listing tools: tools/list"}[on]
					if ev.State != mcpsession.Failed || !strings.HasPrefix(ev.Err, phase+": the answer to request ") {
						t.Fatalf("h: %s %q, want failed in %s", ev.State, ev.Err, phase)
					}
					got = ev.Err[len(phase)+2:]
				}
				t.Logf("%s", got)
				if !strings.HasPrefix(got, "the answer to request ") || !strings.Contains(got, " was refused: ") || !strings.Contains(got, reasons[mode]) {
					t.Errorf("error %q, want what came and why it was refused: %q", got, reasons[mode])
				}
				var problem bool
				for _, f := range s.FrameLog("h").Frames() {
					problem = problem || strings.HasPrefix(f.Problem, "refused as the answer to request ") ||
						strings.Contains(f.Problem, "; refused as the answer to request ")
				}
				if !problem {
					t.Errorf("no frame on the wire marked as a refused answer")
				}
			})
		}
	}
}
