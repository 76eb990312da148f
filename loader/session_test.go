package loader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// settleTimeout bounds how long a test waits for servers to connect.
const settleTimeout = 20 * time.Second

// demoConfig is the demo config served by this test binary (see TestMain).
func demoConfig() *config.Config {
	cfg := demo.Config(os.Args[0])
	for i := range cfg.Servers {
		s := &cfg.Servers[i]
		s.Env = append(s.Env, config.EnvVar{Key: envDemo, Value: s.Label})
	}
	return cfg
}

// testServer is a spec running one of the test servers of TestMain.
func testServer(label, name string) config.ServerSpec {
	return config.ServerSpec{Label: label, Command: os.Args[0], Env: []config.EnvVar{{Key: envServer, Value: name}}}
}

// open opens cfg and closes the session when the test ends.
func open(t *testing.T, cfg *config.Config, opts loader.Options) *loader.Session {
	t.Helper()
	s := loader.Open(cfg, opts)
	t.Cleanup(func() { s.Close() })
	return s
}

// nextState returns the next state event, skipping wire events.
func nextState(t *testing.T, s *loader.Session, timeout time.Duration) mcpsession.Event {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatalf("events closed while waiting for a state event")
			}
			if !ev.Frames {
				return ev
			}
		case <-deadline:
			t.Fatalf("no state event within %s", timeout)
		}
	}
}

// settle reads events until every server of cfg is Ready or Failed, and
// returns the state events seen and the last one per server.
func settle(t *testing.T, s *loader.Session, cfg *config.Config) ([]mcpsession.Event, map[string]mcpsession.Event) {
	t.Helper()
	var seen []mcpsession.Event
	last := map[string]mcpsession.Event{}
	deadline := time.Now().Add(settleTimeout)
	for {
		done := 0
		for _, spec := range cfg.Servers {
			if st := last[spec.Label].State; (st == mcpsession.Ready || st == mcpsession.Failed) && last[spec.Label].Server != "" {
				done++
			}
		}
		if done == len(cfg.Servers) {
			return seen, last
		}
		ev := nextState(t, s, time.Until(deadline))
		seen = append(seen, ev)
		last[ev.Server] = ev
	}
}

func toolNames(tools []model.Tool) []string {
	names := []string{}
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	return names
}

// method returns the method and raw id of a JSON-RPC frame.
func method(t *testing.T, frame []byte) (string, json.RawMessage) {
	t.Helper()
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(frame, &msg); err != nil {
		t.Fatalf("frame %q is not JSON: %v", frame, err)
	}
	return msg.Method, msg.ID
}

// assertGone checks that no process has pid any more (reaped, not a zombie).
func assertGone(t *testing.T, label string, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Errorf("%s: pid = %d, want a started process", label, pid)
		return
	}
	if processLives(pid) {
		t.Errorf("%s: process %d still exists after Close", label, pid)
	}
}

func TestDemoServers(t *testing.T) {
	cfg := demoConfig()
	start := time.Now()
	s := open(t, cfg, loader.Options{})
	seen, last := settle(t, s, cfg)
	t.Logf("3 demo servers ready in %s", time.Since(start))

	for i, label := range []string{"alpha", "beta", "gamma"} {
		if ev := seen[i]; ev.Server != label || ev.State != mcpsession.Connecting {
			t.Errorf("state event %d = %s %s, want %s connecting (config order)", i, ev.Server, ev.State, label)
		}
	}
	want := map[string][]string{
		"alpha": {"request", "alpha_status"},
		"beta":  {"request", "beta_lookup"},
		"gamma": {"literature.search_pubmed", "summarize_the_entire_quarterly_financial_report_with_tables", "search"},
	}
	for label, names := range want {
		ev := last[label]
		if ev.State != mcpsession.Ready {
			t.Fatalf("%s: state %s (%s), want ready; stderr:\n%s", label, ev.State, ev.Err, ev.Stderr)
		}
		if got := toolNames(ev.Tools); !reflect.DeepEqual(got, names) {
			t.Errorf("%s: tools %q, want %q", label, got, names)
		}
		for _, tool := range ev.Tools {
			if !tool.NameOK || tool.Description == "" || len(tool.Raw) == 0 || len(tool.InputSchema) == 0 {
				t.Errorf("%s: tool %+v, want a usable name, a description, a raw row and a schema", label, tool)
			}
		}
		if ev.Protocol != loader.ProtocolVersion || ev.ServerName != "mcplens-demo-"+label || ev.Err != "" {
			t.Errorf("%s: protocol %q, server %q, note %q; want %q, %q, no note",
				label, ev.Protocol, ev.ServerName, ev.Err, loader.ProtocolVersion, "mcplens-demo-"+label)
		}

		// The handshake is the server/discover probe, which the demo
		// servers answer: the connection is stateless, with no initialize.
		frames := s.FrameLog(label).Frames()
		var outs []string
		for _, f := range frames {
			if f.Server != label {
				t.Errorf("%s: frame of server %q", label, f.Server)
			}
			if f.Dir == mcpsession.Out {
				m, _ := method(t, f.Bytes)
				outs = append(outs, m)
			}
		}
		// The listen stream opens beside the first listing, so only the
		// probe's place is fixed.
		if len(outs) < 2 || outs[0] != "server/discover" || !slices.Contains(outs, "tools/list") || slices.Contains(outs, "initialize") {
			t.Errorf("%s: methods written %q, want server/discover first, then tools/list, and no initialize", label, outs)
		}
		if want := loader.ProtocolVersion + " via server/discover"; ev.Facts.Settled != want {
			t.Errorf("%s: settled %q, want %q", label, ev.Facts.Settled, want)
		}
	}
	long := want["gamma"][1]
	if n := len("mcp__gamma__" + long); n <= 64 {
		t.Errorf("qualified %q is %d characters, want over 64", long, n)
	}

	t.Run("call", func(t *testing.T) {
		args := json.RawMessage(`{"verb":"get","params":{"id":7}}`)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := s.Call(ctx, "alpha", "request", args)
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		if !bytes.Contains(res.Request, []byte(`"name":"request"`)) {
			t.Errorf("request %s does not carry \"name\":\"request\"", res.Request)
		}
		var req struct {
			Method string `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(res.Request, &req); err != nil {
			t.Fatalf("request %q: %v", res.Request, err)
		}
		if req.Method != "tools/call" || req.Params.Name != "request" || string(req.Params.Arguments) != string(args) {
			t.Errorf("request = %s, want tools/call of request with %s", res.Request, args)
		}
		_, reqID := method(t, res.Request)
		_, respID := method(t, res.Response)
		if string(reqID) != string(respID) {
			t.Errorf("response id %s, want the request's %s", respID, reqID)
		}
		// Both lines are the tapped bytes, the same as in the wire log.
		var sawReq, sawResp bool
		for _, f := range s.FrameLog("alpha").Frames() {
			sawReq = sawReq || (f.Dir == mcpsession.Out && bytes.Equal(f.Bytes, res.Request))
			sawResp = sawResp || (f.Dir == mcpsession.In && bytes.Equal(f.Bytes, res.Response))
		}
		if !sawReq || !sawResp {
			t.Errorf("request in wire log: %v, response in wire log: %v; want both", sawReq, sawResp)
		}
		wantText := `alpha received tool "request" with arguments {"verb":"get","params":{"id":7}}`
		if got := resultText(t, res.Result); got != wantText || res.IsError {
			t.Errorf("result text %q (isError %v), want %q", got, res.IsError, wantText)
		}
		if res.Latency <= 0 || res.Server != "alpha" || res.Wire != "request" {
			t.Errorf("result = %+v, want alpha/request with a latency", res)
		}

		for server, tool := range map[string]string{"beta": "request", "gamma": "literature.search_pubmed"} {
			res, err := s.Call(ctx, server, tool, nil)
			if err != nil {
				t.Fatalf("Call(%s, %s): %v", server, tool, err)
			}
			wantText := server + ` received tool "` + tool + `" with arguments {}`
			if got := resultText(t, res.Result); got != wantText {
				t.Errorf("Call(%s, %s) text %q, want %q", server, tool, got, wantText)
			}
		}
		if _, err := s.Call(ctx, "nobody", "request", nil); err == nil {
			t.Errorf("Call on an unknown server succeeded")
		}
		if _, err := s.Call(ctx, "alpha", "request", json.RawMessage(`{"verb":`)); err == nil {
			t.Errorf("Call with broken arguments succeeded")
		}
	})

	pids := map[string]int{}
	for label := range want {
		pids[label] = s.Pid(label)
	}
	closeStart := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	t.Logf("closed in %s", time.Since(closeStart))
	for label, pid := range pids {
		assertGone(t, label, pid)
	}
	closed := map[string]bool{}
	for ev := range s.Events() { // must end: Close closes the channel
		if ev.State == mcpsession.Closed && !ev.Frames {
			closed[ev.Server] = true
		}
	}
	if len(closed) != 3 {
		t.Errorf("closed events for %v, want all three servers", closed)
	}
}

// resultText returns the text of a tools/call result with one text content.
func resultText(t *testing.T, result json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
	}
	if err := json.Unmarshal(result, &r); err != nil || len(r.Content) != 1 || r.Content[0].Type != "text" {
		t.Fatalf("result %s: want one text content (%v)", result, err)
	}
	return r.Content[0].Text
}

func TestBannerIsJunk(t *testing.T) {
	const banner = "demo alpha v1 starting (this line is not JSON)"
	cfg := demoConfig()
	cfg.Servers = cfg.Servers[:1]
	cfg.Servers[0].Env = append(cfg.Servers[0].Env, config.EnvVar{Key: envBanner, Value: banner})
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if ev := last["alpha"]; ev.State != mcpsession.Ready || len(ev.Tools) != 2 {
		t.Fatalf("alpha: %s with %d tools (%s), want ready with 2", ev.State, len(ev.Tools), ev.Err)
	}
	var in []mcpsession.Frame
	for _, f := range s.FrameLog("alpha").Frames() {
		if f.Dir == mcpsession.In {
			in = append(in, f)
		}
	}
	if len(in) < 3 {
		t.Fatalf("in frames %d, want the banner and two answers", len(in))
	}
	if string(in[0].Bytes) != banner || !in[0].Junk {
		t.Errorf("first in frame %q (junk %v), want the banner as junk", in[0].Bytes, in[0].Junk)
	}
	for _, f := range in[1:] {
		if f.Junk {
			t.Errorf("frame %q marked junk", f.Bytes)
		}
	}
}

func TestFailingServers(t *testing.T) {
	cfg := demoConfig()
	cfg.Servers = append(cfg.Servers[:1],
		config.ServerSpec{Label: "missing", Command: "/nonexistent/mcplens-test-no-such-server"},
		config.ServerSpec{Label: "boom", Command: "sh", Args: []string{"-c", "echo boom >&2; exit 3"}},
	)
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)

	if ev := last["alpha"]; ev.State != mcpsession.Ready {
		t.Errorf("alpha: %s (%s), want ready beside failing servers", ev.State, ev.Err)
	}
	missing := last["missing"]
	if missing.State != mcpsession.Failed || !strings.Contains(missing.Err, "starting") || !strings.Contains(missing.Err, "no such file") {
		t.Errorf("missing: %s %q, want failed to start with no such file", missing.State, missing.Err)
	}
	boom := last["boom"]
	if boom.State != mcpsession.Failed || !strings.Contains(boom.Err, "exit status 3") || !strings.Contains(boom.Err, "initialize") {
		t.Errorf("boom: %s %q, want failed at initialize with exit status 3", boom.State, boom.Err)
	}
	if !strings.Contains(boom.Stderr, "boom") || !strings.Contains(s.Stderr("boom"), "boom") {
		t.Errorf("boom stderr %q / %q, want the tail with boom", boom.Stderr, s.Stderr("boom"))
	}
	t.Logf("missing: %s\nboom: %s", missing.Err, boom.Err)

	_, err := s.Call(context.Background(), "boom", "request", nil)
	if !errors.Is(err, loader.ErrNotReady) {
		t.Errorf("Call on a failed server: %v, want ErrNotReady", err)
	}
}

func TestTimeout(t *testing.T) {
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{
		{Label: "mute", Command: "sleep", Args: []string{"60"}},
	}}
	s := open(t, cfg, loader.Options{Timeout: 300 * time.Millisecond})
	_, last := settle(t, s, cfg)
	if ev := last["mute"]; ev.State != mcpsession.Failed || !strings.Contains(ev.Err, "initialize: no answer within 300ms") {
		t.Errorf("mute: %s %q, want failed with no answer within 300ms", ev.State, ev.Err)
	}
	pid := s.Pid("mute")
	s.Close()
	assertGone(t, "mute", pid)
}

func TestCallEndsWhenServerDies(t *testing.T) {
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{testServer("slow", "slow")}}
	s := open(t, cfg, loader.Options{})
	if _, last := settle(t, s, cfg); last["slow"].State != mcpsession.Ready {
		t.Fatalf("slow: %s (%s), want ready", last["slow"].State, last["slow"].Err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	type outcome struct {
		res mcpsession.CallResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := s.Call(ctx, "slow", "hang", nil)
		done <- outcome{res, err}
	}()
	// Kill the server once the call is on the wire.
	for written, deadline := false, time.Now().Add(settleTimeout); !written; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the tools/call was not written within %s", settleTimeout)
		}
		for _, f := range s.FrameLog("slow").Frames() {
			if m, _ := method(t, f.Bytes); f.Dir == mcpsession.Out && m == "tools/call" {
				written = true
			}
		}
	}
	if err := killPid(s.Pid("slow")); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-done:
		if o.err == nil || errors.Is(o.err, context.DeadlineExceeded) {
			t.Errorf("Call on a killed server: %v, want an error before the deadline", o.err)
		}
		if !bytes.Contains(o.res.Request, []byte(`"name":"hang"`)) || o.res.Response != nil {
			t.Errorf("Call result %+v, want the request and no response", o.res)
		}
		t.Logf("call error: %v", o.err)
	case <-time.After(settleTimeout):
		t.Fatalf("Call still pending %s after its server was killed", settleTimeout)
	}
	ev := nextState(t, s, settleTimeout)
	if ev.Server != "slow" || ev.State != mcpsession.Failed || !strings.Contains(ev.Err, "signal: killed") {
		t.Errorf("after the kill: %s %s %q, want slow failed with signal: killed", ev.Server, ev.State, ev.Err)
	}
}

func TestCloseKillsStubbornServer(t *testing.T) {
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{testServer("stubborn", "stubborn")}}
	s := open(t, cfg, loader.Options{})
	if _, last := settle(t, s, cfg); last["stubborn"].State != mcpsession.Ready {
		t.Fatalf("stubborn: %s (%s), want ready", last["stubborn"].State, last["stubborn"].Err)
	}
	pid := s.Pid("stubborn")
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	took := time.Since(start)
	t.Logf("Close took %s", took)
	if took > 10*time.Second {
		t.Errorf("Close took %s: the escalation did not end it", took)
	}
	assertGone(t, "stubborn", pid)
	// The escalation went all the way: the server saw its stdin close and
	// a SIGTERM, and outlived both.
	if stderr := s.Stderr("stubborn"); !strings.Contains(stderr, "still here") || !strings.Contains(stderr, "SIGTERM ignored") {
		t.Errorf("stderr %q: want proof the server outlived stdin and SIGTERM", stderr)
	}
}

func TestPaginationAndListChanged(t *testing.T) {
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{testServer("grow", "grow")}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	ev := last["grow"]
	if got, want := toolNames(ev.Tools), []string{"grow", "t1", "t2"}; ev.State != mcpsession.Ready || !reflect.DeepEqual(got, want) {
		t.Fatalf("grow: %s %q (%s), want ready with %q", ev.State, got, ev.Err, want)
	}
	pages := 0
	for _, f := range s.FrameLog("grow").Frames() {
		if m, _ := method(t, f.Bytes); f.Dir == mcpsession.Out && m == "tools/list" {
			pages++
		}
	}
	// mcp-go offers a cursor after a full last page too, so a fourth
	// request finds it empty.
	if pages < 3 {
		t.Errorf("tools/list requests %d, want one per tool at least", pages)
	}

	if _, err := s.Call(context.Background(), "grow", "grow", nil); err != nil {
		t.Fatalf("Call(grow): %v", err)
	}
	ev = nextState(t, s, 10*time.Second)
	if got, want := toolNames(ev.Tools), []string{"grow", "t1", "t2", "t3"}; ev.State != mcpsession.Ready || !reflect.DeepEqual(got, want) {
		t.Errorf("after list_changed: %s %q (%s), want ready with %q", ev.State, got, ev.Err, want)
	}
	if ev.Protocol != loader.ProtocolVersion || ev.ServerName != "grow" {
		t.Errorf("relisted event %+v lost the server's details", ev)
	}
}

func TestHostileRows(t *testing.T) {
	cfg := &config.Config{Path: "t", Servers: []config.ServerSpec{testServer("hostile", "hostile")}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	ev := last["hostile"]
	if ev.State != mcpsession.Ready {
		t.Fatalf("hostile: %s (%s), want ready", ev.State, ev.Err)
	}
	want := []struct {
		name    string
		ok      bool
		problem string
	}{
		{"ok", true, ""},
		{"", false, "missing name"},
		{"", false, "name is a number, not a string"},
		{"", false, "empty name"},
		{"", false, "row is a string, not an object"},
		{"second_page", true, ""},
	}
	if len(ev.Tools) != len(want) {
		t.Fatalf("tools %d: %+v, want %d", len(ev.Tools), ev.Tools, len(want))
	}
	for i, w := range want {
		got := ev.Tools[i]
		if got.Name != w.name || got.NameOK != w.ok || got.NameProblem != w.problem {
			t.Errorf("tool %d = %q ok=%v %q, want %q ok=%v %q", i, got.Name, got.NameOK, got.NameProblem, w.name, w.ok, w.problem)
		}
	}
	if string(ev.Tools[2].Raw) != `{"name":42}` {
		t.Errorf("raw row %s, want the row as listed", ev.Tools[2].Raw)
	}
	if !strings.Contains(ev.Err, `nextCursor "again" was already followed`) {
		t.Errorf("note %q, want the repeated cursor named", ev.Err)
	}
	if ev.ServerName != "hostile" || ev.ServerVersion != "6.6.6" {
		t.Errorf("serverInfo %q %q, want hostile 6.6.6", ev.ServerName, ev.ServerVersion)
	}
}
