package loader_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
)

// The tests below run each mode of the hostile server (testdata/servers/
// hostile) for real over stdio, as server "h" beside the demo servers alpha
// and beta, and check both what happens to h and that alpha and beta do not
// notice.

// withHostile opens alpha, beta and the hostile server h in mode.
func withHostile(t *testing.T, opts loader.Options, mode string, flags ...string) (*config.Config, *loader.Session) {
	t.Helper()
	cfg := demoConfig()
	cfg.Servers = append(cfg.Servers[:2], hostile.Spec(t, "h", mode, flags...))
	return cfg, open(t, cfg, opts)
}

// neighboursFine checks that alpha and beta are ready with their tools and
// that alpha still answers a call.
func neighboursFine(t *testing.T, s *loader.Session, last map[string]mcpsession.Event) {
	t.Helper()
	for _, label := range []string{"alpha", "beta"} {
		if ev := last[label]; ev.State != mcpsession.Ready || len(ev.Tools) != 2 || ev.Err != "" || len(ev.Findings) > 0 {
			t.Errorf("%s beside a hostile server: %s, %d tools, note %q, findings %v; want ready with 2", label, ev.State, len(ev.Tools), ev.Err, ev.Findings)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if res, err := s.Call(ctx, "alpha", "request", json.RawMessage(`{"verb":"get"}`)); err != nil || res.IsError {
		t.Errorf("calling alpha beside a hostile server: %v", err)
	}
}

// protocolFindings returns the evidence of h's protocol findings.
func protocolFindings(ev mcpsession.Event) string {
	var out []string
	for _, f := range ev.Findings {
		if f.Kind == "protocol" && f.Server == ev.Server {
			out = append(out, f.Evidence)
		}
	}
	return strings.Join(out, "\n")
}

func TestHostileExits(t *testing.T) {
	tests := []struct {
		mode, err, stderr string
	}{
		{"exit-start", "initialize: server exited (exit status 3)", "exiting at start"},
		{"exit-initialize", "initialize: server exited (exit status 4)", "exiting during initialize"},
		{"exit-list", "listing tools: server exited (exit status 5)", "exiting during tools/list"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			cfg, s := withHostile(t, loader.Options{}, tt.mode)
			_, last := settle(t, s, cfg)
			ev := last["h"]
			if ev.State != mcpsession.Failed || ev.Err != tt.err || !strings.Contains(ev.Stderr, tt.stderr) {
				t.Errorf("h: %s %q, stderr %q; want failed %q with %q in the stderr tail", ev.State, ev.Err, ev.Stderr, tt.err, tt.stderr)
			}
			neighboursFine(t, s, last)
		})
	}
	t.Run("exit-call", func(t *testing.T) {
		cfg, s := withHostile(t, loader.Options{}, "exit-call")
		_, last := settle(t, s, cfg)
		if ev := last["h"]; ev.State != mcpsession.Ready {
			t.Fatalf("h: %s (%s), want ready until the call", ev.State, ev.Err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		res, err := s.Call(ctx, "h", "echo", nil)
		took := time.Since(start)
		t.Logf("the call ended after %s: %v", took, err)
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Call to a server that exits mid-call: %v after %s, want an error at once", err, took)
		}
		if len(res.Request) == 0 || res.Response != nil {
			t.Errorf("call result %+v: want the request and no response", res)
		}
		ev := nextState(t, s, settleTimeout)
		if ev.Server != "h" || ev.State != mcpsession.Failed || ev.Err != "server exited (exit status 6)" || !strings.Contains(ev.Stderr, "exiting during tools/call") {
			t.Errorf("after the call: %s %s %q, stderr %q; want h failed with exit status 6 and its stderr", ev.Server, ev.State, ev.Err, ev.Stderr)
		}
		neighboursFine(t, s, last)
	})
}

func TestHostileSilent(t *testing.T) {
	const timeout = 3 * time.Second
	for _, tt := range []struct{ mode, err string }{
		{"silent-initialize", "initialize: no answer within 3s"},
		{"silent-list", "listing tools: no answer within 3s"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			// The timeout is h's own, as a config gives it; alpha and beta
			// keep the default.
			cfg := demoConfig()
			h := hostile.Spec(t, "h", tt.mode)
			h.Timeout = timeout
			cfg.Servers = append(cfg.Servers[:2], h)
			start := time.Now()
			s := open(t, cfg, loader.Options{})
			at := map[string]time.Duration{}
			last := map[string]mcpsession.Event{}
			for len(at) < 3 {
				ev := nextState(t, s, settleTimeout)
				if ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
					at[ev.Server], last[ev.Server] = time.Since(start), ev
				}
			}
			t.Logf("alpha ready after %s, beta after %s, h failed after %s", at["alpha"], at["beta"], at["h"])
			if ev := last["h"]; ev.State != mcpsession.Failed || ev.Err != tt.err {
				t.Errorf("h: %s %q, want failed %q", ev.State, ev.Err, tt.err)
			}
			// Never before its timeout; the upper bound only catches a wait
			// that the timeout did not end (start-up time varies too much on
			// a loaded machine for anything tighter).
			if at["h"] < timeout || at["h"] > timeout+15*time.Second {
				t.Errorf("h failed after %s, want after its %s timeout and not long after", at["h"], timeout)
			}
			neighboursFine(t, s, last)
		})
	}
}

// TestHostileSilentWaitsForNobody: while a silent server is still being
// waited for, every other server connects and lists; nothing else waits on
// it, however slow the machine.
func TestHostileSilentWaitsForNobody(t *testing.T) {
	cfg := demoConfig()
	h := hostile.Spec(t, "h", "silent-initialize")
	h.Timeout = 10 * time.Minute
	cfg.Servers = append(cfg.Servers[:2], h)
	s := open(t, cfg, loader.Options{})
	ready := map[string]bool{}
	for !ready["alpha"] || !ready["beta"] {
		ev := nextState(t, s, settleTimeout)
		switch {
		case ev.Server == "h" && ev.State != mcpsession.Connecting:
			t.Fatalf("h: %s %q before alpha and beta were ready; it never answers", ev.State, ev.Err)
		case ev.State == mcpsession.Ready:
			ready[ev.Server] = true
		case ev.State == mcpsession.Failed:
			t.Fatalf("%s failed: %s", ev.Server, ev.Err)
		}
	}
}

func TestHostileJunk(t *testing.T) {
	start := time.Now()
	cfg, s := withHostile(t, loader.Options{}, "junk")
	_, last := settle(t, s, cfg)
	took := time.Since(start)
	t.Logf("ready after %s", took)
	ev := last["h"]
	if ev.State != mcpsession.Ready || len(ev.Tools) != 1 || ev.Tools[0].Name != "echo" {
		t.Fatalf("h: %s %q with %d tools, want ready with echo", ev.State, ev.Err, len(ev.Tools))
	}
	if took > 10*time.Second { // a stall lasts the 20s timeout
		t.Errorf("connecting took %s: junk stalled the protocol", took)
	}
	res, err := s.Call(context.Background(), "h", "echo", nil)
	if err != nil || !strings.Contains(string(res.Result), "hostile received echo") {
		t.Errorf("Call through junk: %v, result %s", err, res.Result)
	}
	if f := protocolFindings(ev); !strings.Contains(f, `stdout carries text that is not JSON`) || !strings.Contains(f, "hostile banner v1.0") {
		t.Errorf("findings %q, want one naming the banner", f)
	}
	var junk, json []string
	for _, f := range s.FrameLog("h").Frames() {
		if f.Dir != mcpsession.In {
			continue
		}
		if f.Junk {
			junk = append(junk, string(f.Bytes))
		} else {
			json = append(json, string(f.Bytes))
		}
	}
	// The banners on lines of their own, and the log text written without
	// a newline before each answer, each a junk frame of its own.
	want := []string{"hostile banner v1.0 (not JSON)", "log: listening on stdio", "log: answering "}
	for i, w := range want {
		if i >= len(junk) || !strings.HasPrefix(junk[i], w) {
			t.Errorf("junk frames %q, want %q first", junk, want)
			break
		}
	}
	for _, j := range json {
		if !strings.HasPrefix(j, `{"jsonrpc":"2.0","id":`) {
			t.Errorf("frame %q not junk, want only the JSON part of its line", j)
		}
	}
	neighboursFine(t, s, last)
}

func TestHostileStray(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "stray")
	_, last := settle(t, s, cfg)
	ev := last["h"]
	if ev.State != mcpsession.Ready || len(ev.Tools) != 1 {
		t.Fatalf("h: %s %q with %d tools, want ready with 1", ev.State, ev.Err, len(ev.Tools))
	}
	// The faults written right after initialize may come after tools/list:
	// wait for the Ready event that carries all three kinds.
	for deadline := time.Now().Add(settleTimeout); strings.Count(protocolFindings(ev), "\n") < 2 && time.Now().Before(deadline); {
		ev = nextState(t, s, time.Until(deadline))
	}
	f := protocolFindings(ev)
	for _, want := range []string{"answers id 9999, which no request is waiting for", "malformed: the id is an object", "not JSON"} {
		if !strings.Contains(f, want) {
			t.Errorf("findings %q, want %q", f, want)
		}
	}
	problems := map[string]bool{}
	for _, fr := range s.FrameLog("h").Frames() {
		if fr.Problem != "" {
			problems[fr.Problem] = true
		}
	}
	for _, want := range []string{
		"answers id 9999, which no request is waiting for",
		"answers id 2, which no request is waiting for", // initialize (after the probe, id 1) answered twice
		`malformed: the id is an object, not a string or a number`,
		`not a JSON-RPC 2.0 message: "jsonrpc" is "1.0"`,
		"not a JSON-RPC message: an array, not an object",
		"malformed: neither a request, a notification nor a response",
	} {
		if !problems[want] {
			t.Errorf("wire problems %q, want %q", keys(problems), want)
		}
	}
	if res, err := s.Call(context.Background(), "h", "echo", nil); err != nil || res.IsError {
		t.Errorf("Call after stray frames: %v", err)
	}
	neighboursFine(t, s, last)
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestHostileBadRows(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "bad-rows")
	_, last := settle(t, s, cfg)
	ev := last["h"]
	want := []struct{ name, problem string }{
		{"echo", ""},
		{"", "missing name"},
		{"", "empty name"},
		{"", "name is a number, not a string"},
		{"", "name is an array, not a string"},
		{"", "name is null, not a string"},
		{"twice", ""},
		{"", "row is a string, not an object"},
		{"twice", ""},
		{"last_ok", ""},
	}
	if ev.State != mcpsession.Ready || len(ev.Tools) != len(want) {
		t.Fatalf("h: %s with %d rows, want ready with %d", ev.State, len(ev.Tools), len(want))
	}
	for i, w := range want {
		if got := ev.Tools[i]; got.Name != w.name || got.NameProblem != w.problem || got.NameOK != (w.problem == "") {
			t.Errorf("row %d = %q %q, want %q %q", i, got.Name, got.NameProblem, w.name, w.problem)
		}
	}
	// Every row gets its own outcome under every policy; the good ones
	// are registered, unless the policy fails the whole server on a
	// duplicate name (as openai-agents does), and says so on every row.
	for _, p := range model.Policies() {
		reg := p.Apply([]model.Catalogue{{Server: "h", Tools: ev.Tools}})
		r, _ := reg.Server("h")
		if len(r.Outcomes) != len(want) {
			t.Errorf("%s: %d outcomes for %d rows", p.Name, len(r.Outcomes), len(want))
		}
		for i, o := range r.Outcomes {
			if o.Index != i || (!o.Live() && o.Reason == "") {
				t.Errorf("%s: outcome %d = %+v, want row %d with a reason", p.Name, i, o, i)
			}
		}
		if r.Failed {
			continue
		}
		routed := map[string]bool{}
		for _, rt := range reg.Routes {
			routed[rt.Wire] = true
		}
		for _, name := range []string{"echo", "last_ok"} {
			if !routed[name] {
				t.Errorf("%s: sibling %q of the bad rows not registered", p.Name, name)
			}
		}
	}
	neighboursFine(t, s, last)
}

func TestHostileMany(t *testing.T) {
	start := time.Now()
	cfg, s := withHostile(t, loader.Options{}, "many", "-tools", "10000", "-page", "500")
	_, last := settle(t, s, cfg)
	t.Logf("10,000 tools in 20 pages listed in %s", time.Since(start))
	ev := last["h"]
	if ev.State != mcpsession.Ready || len(ev.Tools) != 10000 || ev.Err != "" {
		t.Fatalf("h: %s %q with %d tools, want ready with 10000", ev.State, ev.Err, len(ev.Tools))
	}
	for i, tool := range ev.Tools {
		if want := fmt.Sprintf("tool_%05d", i); tool.Name != want {
			t.Fatalf("tool %d = %q, want %q", i, tool.Name, want)
		}
	}
	neighboursFine(t, s, last)
}

func TestHostileCursorLoop(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "cursor-loop")
	_, last := settle(t, s, cfg)
	ev := last["h"]
	if got, want := toolNames(ev.Tools), []string{"echo", "page1_b", "page2", "page3_B"}; ev.State != mcpsession.Ready || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("h: %s with %q, want ready with what was listed: %q", ev.State, got, want)
	}
	const loop = `tools/list page 3: nextCursor "A" was already followed; stopped there`
	if ev.Err != loop || protocolFindings(ev) != loop {
		t.Errorf("note %q, findings %q; want the loop named in both", ev.Err, protocolFindings(ev))
	}
	neighboursFine(t, s, last)
}

func TestHostileEscapes(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "escapes")
	_, last := settle(t, s, cfg)
	ev := last["h"]
	if ev.State != mcpsession.Ready || len(ev.Tools) != 4 {
		t.Fatalf("h: %s with %d tools, want ready with 4", ev.State, len(ev.Tools))
	}
	// The loader keeps the text as sent (the evidence); views escape it.
	if ev.Tools[0].Name != "red\x1b[31mtool\x1b[0m" || ev.ServerName != "hostile\x1b]0;pwned\x07\u202e" {
		t.Errorf("name %q, server %q: want them as sent", ev.Tools[0].Name, ev.ServerName)
	}
	kinds := map[string]int{}
	for _, f := range model.Findings([]model.Catalogue{{Server: "h", Tools: ev.Tools}}) {
		kinds[f.Kind]++
		if model.Suspicious(model.Sanitize(f.Evidence)) {
			t.Errorf("finding %q still unsafe once sanitized", f.Evidence)
		}
	}
	// Names, descriptions and the schema text each carry both kinds.
	if kinds["control-text"] < 3 || kinds["invisible-text"] < 3 {
		t.Errorf("findings by kind %v, want control and invisible text in names, descriptions and the schema", kinds)
	}
	_, err := s.Call(context.Background(), "h", "fails", nil)
	if err == nil || !strings.Contains(err.Error(), "it broke\x1b[2J") {
		t.Errorf("Call error %v, want the server's message as sent", err)
	}
	if got := model.Sanitize(err.Error()); !strings.Contains(got, `it broke\x1b[2J\x1b]0;pwned\a \u202eevil`) {
		t.Errorf("sanitized error %q, want the escapes visible", got)
	}
	neighboursFine(t, s, last)
}

func TestHostileHuge(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "huge")
	_, last := settle(t, s, cfg)
	ev := last["h"]
	if ev.State != mcpsession.Ready || len(ev.Tools) != 5 {
		t.Fatalf("h: %s %q with %d tools, want ready with 5", ev.State, ev.Err, len(ev.Tools))
	}
	if n := len(ev.Tools[1].Description); n < 1<<20-64 {
		t.Errorf("big description %d bytes, want about 1 MB kept", n)
	}
	want := map[string]string{
		"echo":          "",
		"big":           "",
		"nested":        "inputSchema nests 2001 levels deep (flagged beyond 32)",
		"schema_true":   "inputSchema is a boolean, not an object",
		"schema_type_5": `inputSchema "type" is a number, not "object"`,
	}
	for _, tool := range ev.Tools {
		if got := model.SchemaProblem(tool.InputSchema); got != want[tool.Name] {
			t.Errorf("SchemaProblem(%s) = %q, want %q", tool.Name, got, want[tool.Name])
		}
		start := time.Now()
		sk := schemaform.Format(schemaform.New(tool.InputSchema, true).Value())
		if !json.Valid([]byte(sk)) || time.Since(start) > 10*time.Second {
			t.Errorf("the argument editor's skeleton of %s = %.80q after %s, want a JSON object at once", tool.Name, sk, time.Since(start))
		}
	}
	// The wire keeps the 1 MB line cut to MaxFrameBytes.
	for _, f := range s.FrameLog("h").Frames() {
		if len(f.Bytes) > mcpsession.MaxFrameBytes {
			t.Errorf("frame of %d bytes kept whole, want at most %d", len(f.Bytes), mcpsession.MaxFrameBytes)
		}
	}
	neighboursFine(t, s, last)
}

// heapAfterGC returns the live heap, after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func TestHostileListChangedFlood(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "list-changed-flood")
	_, last := settle(t, s, cfg)
	if ev := last["h"]; ev.State != mcpsession.Ready {
		t.Fatalf("h: %s (%s), want ready", ev.State, ev.Err)
	}
	// Read slowly, like a busy interface, for at least two seconds of
	// flood and until two re-listings came (a loaded machine lists slower).
	before := heapAfterGC()
	readies, generations := 0, map[string]bool{}
	start := time.Now()
	deadline := start.Add(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for time.Since(start) < 2*time.Second || readies < 2 && time.Now().Before(deadline) {
		<-tick.C
	drain:
		for {
			select {
			case ev := <-s.Events():
				if ev.Server == "h" && ev.State == mcpsession.Ready && !ev.Frames {
					readies++
					generations[ev.Tools[len(ev.Tools)-1].Name] = true
				}
			default:
				break drain
			}
		}
	}
	notes := 0
	for _, f := range s.FrameLog("h").Frames() {
		if strings.Contains(string(f.Bytes), "list_changed") {
			notes++
		}
	}
	took := time.Since(start)
	grown := int64(heapAfterGC()) - int64(before)
	t.Logf("%s of flood: %d list_changed in the wire's last %d frames, %d Ready events read, %d distinct lists, heap grew %d KB",
		took.Round(time.Millisecond), notes, mcpsession.MaxFrames, readies, len(generations), grown/1024)
	if readies < 2 || float64(readies) > 15*took.Seconds() {
		t.Errorf("%d Ready events in %s, want relistings coalesced to at most about 10 a second", readies, took)
	}
	if grown > 16<<20 {
		t.Errorf("heap grew %d bytes during the flood, want it bounded", grown)
	}
	neighboursFine(t, s, last)
}

func TestHostileStderrFlood(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "stderr-flood")
	_, last := settle(t, s, cfg)
	if ev := last["h"]; ev.State != mcpsession.Ready {
		t.Fatalf("h: %s (%s), want ready", ev.State, ev.Err)
	}
	before := heapAfterGC()
	// At least 2s of flood, and until a few megabytes have passed: a
	// loaded machine floods slower.
	start := time.Now()
	var tail string
	dropped := 0
	for deadline := start.Add(settleTimeout); ; time.Sleep(50 * time.Millisecond) {
		tail = s.Stderr("h")
		fmt.Sscanf(tail, "[%d earlier bytes dropped]", &dropped)
		if dropped >= 1<<20 && time.Since(start) >= 2*time.Second || time.Now().After(deadline) {
			break
		}
	}
	grown := int64(heapAfterGC()) - int64(before)
	t.Logf("%s of stderr flood: %d MB dropped, tail %d bytes kept, heap grew %d KB", time.Since(start).Round(time.Millisecond), dropped>>20, len(tail), grown/1024)
	if len(tail) > 9<<10 || dropped < 1<<20 {
		t.Errorf("stderr tail %d bytes after %d dropped, want at most about 8 KB kept of a flood", len(tail), dropped)
	}
	if grown > 16<<20 {
		t.Errorf("heap grew %d bytes during the flood, want it bounded", grown)
	}
	neighboursFine(t, s, last)
}

func TestHostileStubborn(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "stubborn")
	_, last := settle(t, s, cfg)
	neighboursFine(t, s, last)
	pids := map[string]int{}
	for _, spec := range cfg.Servers {
		pids[spec.Label] = s.Pid(spec.Label)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	took := time.Since(start)
	t.Logf("Close with a server that ignores stdin EOF and SIGTERM took %s", took)
	// The escalation waits before each signal, so it cannot be quicker;
	// above, only a Close the escalation did not end fails.
	if took < 700*time.Millisecond || took > 10*time.Second {
		t.Errorf("Close took %s, want the escalation (about 0.8s) to end it", took)
	}
	for label, pid := range pids {
		assertGone(t, label, pid)
	}
	if st := s.Stderr("h"); !strings.Contains(st, "stdin closed, staying") {
		t.Errorf("h stderr %q, want proof it outlived its stdin", st)
	}
}

// TestHostileProgressMessage: a server whose every progress message is a
// megabyte has each kept to MaxStatusMessage, as a task's status.
func TestHostileProgressMessage(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "slow-call", "-delay", "1s", "-size", strconv.Itoa(1<<20))
	_, last := settle(t, s, cfg)
	if ev := last["h"]; ev.State != mcpsession.Ready {
		t.Fatalf("h: %s (%s), want ready", ev.State, ev.Err)
	}
	var mu sync.Mutex
	var longest, n int
	ctx := loader.WithProgress(context.Background(), func(p loader.Progress) {
		mu.Lock()
		longest, n = max(longest, len(p.Message)), n+1
		mu.Unlock()
	})
	if _, err := s.Call(ctx, "h", "slow", nil); err != nil {
		t.Fatalf("Call: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n == 0 || longest > loader.MaxStatusMessage+len("…") {
		t.Errorf("%d progress reports, the longest message %d bytes; want some, each at most %d", n, longest, loader.MaxStatusMessage)
	}
}

func TestHostileSlowCall(t *testing.T) {
	cfg, s := withHostile(t, loader.Options{}, "slow-call")
	_, last := settle(t, s, cfg)
	if ev := last["h"]; ev.State != mcpsession.Ready {
		t.Fatalf("h: %s (%s), want ready", ev.State, ev.Err)
	}
	var mu sync.Mutex
	var progress []loader.Progress
	ctx, cancel := context.WithCancel(loader.WithProgress(context.Background(), func(p loader.Progress) {
		mu.Lock()
		progress = append(progress, p)
		mu.Unlock()
	}))
	type outcome struct {
		res mcpsession.CallResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := s.Call(ctx, "h", "slow", nil)
		done <- outcome{res, err}
	}()
	for deadline := time.Now().Add(settleTimeout); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d progress reports after %s, want some", n, settleTimeout)
		}
	}
	cancelled := time.Now()
	cancel()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(settleTimeout):
		t.Fatalf("Call still running %s after its context was cancelled", settleTimeout)
	}
	t.Logf("call ended %s after cancel: %v; progress %+v", time.Since(cancelled), o.err, progress[len(progress)-1])
	if !errors.Is(o.err, context.Canceled) {
		t.Errorf("Call error %v, want context.Canceled", o.err)
	}
	if p := progress[0]; p.Progress != 1 || p.Total != 300 || p.Message != "step 1" {
		t.Errorf("first progress %+v, want 1 of 300, step 1", p)
	}
	_, callID := method(t, o.res.Request)
	// The server is told: notifications/cancelled naming the call's id.
	var sent bool
	for deadline := time.Now().Add(settleTimeout); !sent && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, f := range s.FrameLog("h").Frames() {
			var n struct {
				Method string
				Params struct{ RequestID json.RawMessage }
			}
			if f.Dir == mcpsession.Out && json.Unmarshal(f.Bytes, &n) == nil && n.Method == "notifications/cancelled" && string(n.Params.RequestID) == string(callID) {
				sent = true
			}
		}
	}
	if !sent {
		t.Errorf("no notifications/cancelled for request %s on the wire", callID)
	}
	for deadline := time.Now().Add(settleTimeout); !strings.Contains(s.Stderr("h"), "notifications/cancelled for request "+string(callID)); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("the server did not report the cancellation; stderr %q", s.Stderr("h"))
			break
		}
	}
	if res, err := s.Call(context.Background(), "h", "echo", nil); err != nil || res.IsError {
		t.Errorf("Call after a cancelled call: %v", err)
	}
	neighboursFine(t, s, last)
}

// TestNoCallDuringDiscovery records every method the hostile servers
// receive while they connect, list and relist, and checks none is a call.
func TestNoCallDuringDiscovery(t *testing.T) {
	dir := t.TempDir()
	cfg := demoConfig()
	modes := []string{"bad-rows", "escapes", "huge", "list-changed-flood", "slow-call", "junk"}
	for _, mode := range modes {
		cfg.Servers = append(cfg.Servers, hostile.Spec(t, mode, mode, "-record", filepath.Join(dir, mode)))
	}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	time.Sleep(500 * time.Millisecond) // a few relistings of the flood
	for _, mode := range modes {
		if last[mode].State != mcpsession.Ready {
			t.Errorf("%s: %s (%s), want ready", mode, last[mode].State, last[mode].Err)
		}
		f, err := os.Open(filepath.Join(dir, mode))
		if err != nil {
			t.Fatal(err)
		}
		methods := map[string]int{}
		for sc := bufio.NewScanner(f); sc.Scan(); {
			methods[sc.Text()]++
		}
		f.Close()
		if methods["tools/call"] > 0 || methods["initialize"] != 1 || methods["tools/list"] == 0 {
			t.Errorf("%s received %v, want initialize and tools/list, and no tools/call", mode, methods)
		}
	}
	for _, spec := range cfg.Servers {
		for _, f := range s.FrameLog(spec.Label).Frames() {
			if f.Dir != mcpsession.Out {
				continue
			}
			if m, _ := method(t, f.Bytes); m == "tools/call" {
				t.Errorf("%s: a tools/call was written during discovery: %s", spec.Label, f.Bytes)
			}
		}
	}
}
