package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestMain lets this test binary stand in for mcplens as a demo server:
// `TESTBINARY __demo-server LABEL TOOL...`.
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == demo.Subcommand {
		if err := demo.Serve(os.Args[2], os.Args[3:]...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// collect connects to every server of cfg and returns their settled
// snapshot.
func collect(t *testing.T, cfg *config.Config) *surface.Snapshot {
	t.Helper()
	s := loader.Open(cfg, loader.Options{})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	snap := surface.New(cfg.Servers, cfg.Findings)
	if err := surface.Collect(ctx, s.Events(), snap); err != nil {
		t.Fatalf("Collect: %v", err)
	}
	return snap
}

// A state is a server as a test has it: its spec and the last event it
// sent (none: still connecting).
type state struct {
	spec config.ServerSpec
	ev   *mcpsession.Event
}

// snapshot is the snapshot of the servers of states, the config file
// saying file of itself.
func snapshot(file []string, states ...state) *surface.Snapshot {
	specs := make([]config.ServerSpec, len(states))
	for i, st := range states {
		specs[i] = st.spec
	}
	snap := surface.New(specs, file)
	for _, st := range states {
		if st.ev != nil {
			snap.Apply(*st.ev)
		}
	}
	return snap
}

// build is the report of the servers of states under o.
func build(config string, o surface.Options, states ...state) *report.Report {
	return report.Build(config, surface.Assess(snapshot(nil, states...), o))
}

// failed is a server that failed with err, its stderr ending stderr.
func failed(label, err, stderr string) state {
	return state{spec: config.ServerSpec{Label: label, Command: label},
		ev: &mcpsession.Event{Server: label, State: mcpsession.Failed, Err: err, Stderr: stderr}}
}

func mustPolicy(t *testing.T, name string) model.Policy {
	t.Helper()
	p, ok := model.PolicyNamed(name)
	if !ok {
		t.Fatalf("no policy %q", name)
	}
	return p
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./report -update rewrites it)\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// goldens renders r in every format and checks each against its file.
func goldens(t *testing.T, base string, r *report.Report) {
	t.Helper()
	for format, ext := range map[string]string{"text": "txt", "markdown": "md", "json": "json"} {
		var b bytes.Buffer
		if err := report.Write(&b, r, format); err != nil {
			t.Fatalf("Write %s: %v", format, err)
		}
		if format == "json" && !json.Valid(b.Bytes()) {
			t.Errorf("the JSON report is not valid JSON:\n%s", b.Bytes())
		}
		golden(t, base+"."+ext, b.Bytes())
	}
}

// TestGoldenDemo runs the demo servers for real and checks the report of
// the default policy, in every format.
func TestGoldenDemo(t *testing.T) {
	cfg := demo.Config(os.Args[0])
	r := report.Build(cfg.Path, surface.Assess(collect(t, cfg), surface.Options{
		Policy:   mustPolicy(t, "lionagi-legacy"),
		Profiles: model.DefaultProfiles(),
	}))
	goldens(t, "demo", r)
	if r.Summary.Errors == 0 {
		t.Errorf("the demo under lionagi-legacy loses beta's request, but the report has no error")
	}
}

// TestGoldenCollisions checks the report of a config whose labels sanitize
// alike, under claude-code (which merges them), with a server that cannot
// start.
func TestGoldenCollisions(t *testing.T) {
	cfg, err := config.Load("../testdata/configs/collisions/labels-sanitize-alike.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := range cfg.Servers {
		cfg.Servers[i].Command = os.Args[0]
	}
	cfg.Servers = append(cfg.Servers, config.ServerSpec{Label: "broken", Command: "/nonexistent/mcplens-test-server"})
	r := report.Build(cfg.Path, surface.Assess(collect(t, cfg), surface.Options{
		Policy:   mustPolicy(t, "claude-code"),
		Profiles: model.DefaultProfiles(),
	}))
	goldens(t, "collisions", r)
	if len(r.Collisions) == 0 {
		t.Errorf("no collision reported for labels that sanitize alike under claude-code")
	}
}

// tool is a listed row with a usable name.
func tool(raw string) model.Tool {
	var head struct{ Name, Description string }
	_ = json.Unmarshal([]byte(raw), &head)
	return model.Tool{Name: head.Name, NameOK: true, Description: head.Description, Raw: json.RawMessage(raw)}
}

// ready is a server listed with tools.
func ready(label string, tools ...model.Tool) state {
	return state{spec: config.ServerSpec{Label: label, Command: label},
		ev: &mcpsession.Event{Server: label, State: mcpsession.Ready, Protocol: "2025-11-25", Tools: tools}}
}

// kinds lists the findings as "level kind server tool".
func kinds(r *report.Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s %s %s %s", f.Severity, f.Kind, f.Server, f.Tool)))
	}
	return out
}

func TestBuildLevels(t *testing.T) {
	long := strings.Repeat("x", 70)
	r := build("test", surface.Options{Policy: mustPolicy(t, "lionagi-legacy"), Profiles: model.DefaultProfiles()},
		ready("a", tool(`{"name":"request"}`), tool(`{"name":"`+long+`"}`)),
		ready("b", tool(`{"name":"request"}`)),
		failed("c", "initialize: server exited (exit status 3)", "boom\n"),
	)
	want := []string{
		"error provider a " + long,   // openai: over 64
		"warning provider a " + long, // anthropic: over the documented 64
		"error provider a " + long,   // gemini: over 64
		"error tool-lost b request",
		"error server-failed c",
	}
	if got := kinds(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Summary.Errors != 4 || r.Summary.Warnings != 1 || r.Summary.Failed != 1 {
		t.Errorf("summary = %+v, want 4 errors, 1 warning, 1 failed", r.Summary)
	}
	if sev, ok := r.Worst(); !ok || sev != report.Error {
		t.Errorf("Worst() = %v, %v, want error", sev, ok)
	}
	if got := r.Servers[1].Status; got != "incomplete" {
		t.Errorf("b's status = %q, want incomplete (its request has no route)", got)
	}
	if rt := r.Servers[1].Tools[0].Route; rt == nil || rt.Server != "a" {
		t.Errorf("b's dropped request: route = %+v, want a's", rt)
	}
	if got := r.Findings[4].Evidence; !strings.Contains(got, "exit status 3") || !strings.Contains(got, "stderr: boom") {
		t.Errorf("server-failed evidence = %q, want the error and the stderr tail", got)
	}

	clean := build("test", surface.Options{Policy: mustPolicy(t, "lionagi"), Profiles: model.DefaultProfiles()},
		ready("a", tool(`{"name":"request"}`)))
	if _, ok := clean.Worst(); ok {
		t.Errorf("a clean surface has findings: %v", kinds(clean))
	}
}

func TestBuildLock(t *testing.T) {
	approved := snapshot(nil,
		ready("a", tool(`{"name":"search","description":"Searches."}`), tool(`{"name":"old"}`)),
		ready("gone"),
	)
	lock := surface.UpdatedLock(nil, approved)
	now := snapshot(nil,
		ready("a", tool(`{"name":"search","description":"Searches. Then uploads."}`), tool(`{"name":"new"}`)),
		ready("fresh", tool(`{"name":"x"}`)),
		failed("down", "no", ""),
	)
	o := surface.Options{Policy: mustPolicy(t, "lionagi"), Lock: lock, LockPath: "mcplens.lock"}
	r := report.Build("test", surface.Assess(now, o))
	want := []string{
		"error lock a search",
		"error lock a new",
		"error lock a old",
		"error lock fresh",
		"error server-failed down",
		"error lock gone",
	}
	if got := kinds(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := r.Findings[0].Evidence; got != `tool "search" on a changed since the lock: description changed: "Searches." → "Searches. Then uploads."` {
		t.Errorf("evidence = %s", got)
	}
	statuses := []string{r.Servers[0].Lock.Status, r.Servers[1].Lock.Status, r.Servers[2].Lock.Status}
	if strings.Join(statuses, " ") != "changed unpinned not-compared" {
		t.Errorf("lock statuses = %v", statuses)
	}
	if marks := r.Servers[0].Tools[0].Lock + " " + r.Servers[0].Tools[1].Lock; marks != "changed added" {
		t.Errorf("tool marks = %q, want changed added", marks)
	}
	if strings.Join(r.Lock.Stale, ",") != "gone" {
		t.Errorf("stale = %v, want [gone]", r.Lock.Stale)
	}

	o.LockUpdated = true
	accepted := report.Build("test", surface.Assess(now, o))
	if accepted.Summary.Errors != 1 { // the failed server only
		t.Errorf("with the lock being updated, errors = %d, want 1 (lock changes are info): %v", accepted.Summary.Errors, kinds(accepted))
	}
	next := surface.UpdatedLock(lock, now)
	if _, ok := next.Servers["gone"]; ok {
		t.Errorf("the updated lock keeps a server the config dropped")
	}
	if _, ok := next.Servers["fresh"]; !ok {
		t.Errorf("the updated lock lacks the new server")
	}
	down := surface.UpdatedLock(surface.UpdatedLock(nil, snapshot(nil, ready("down", tool(`{"name":"t"}`)))), now)
	if _, ok := down.Servers["down"]; !ok {
		t.Errorf("a server that failed this run lost its approval in the updated lock")
	}
}

// Server text never reaches a terminal as escapes, nor Markdown as markup.
func TestHostileText(t *testing.T) {
	evil := "\x1b]0;pwned\x07name\u202e|*x*`"
	r := build("cfg\x1b[2J", surface.Options{Policy: mustPolicy(t, "lionagi-legacy"), Profiles: model.DefaultProfiles()},
		failed("s", "bad "+evil, evil),
		ready("t", model.Tool{Name: evil, NameOK: true, Raw: json.RawMessage(`{}`)}),
	)
	for _, format := range []string{"text", "markdown", "json"} {
		var b bytes.Buffer
		if err := report.Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s report carries %q raw:\n%s", format, bad, out)
			}
		}
		if format == "markdown" && regexp.MustCompile(`[^\\]\|\*x\*`).MatchString(out) {
			t.Errorf("markdown report lets server text act as markup:\n%s", out)
		}
		if format == "json" {
			var back report.Report
			if err := json.Unmarshal(b.Bytes(), &back); err != nil {
				t.Fatalf("JSON report does not read back: %v", err)
			}
			if back.Servers[1].Tools[0].Wire != evil {
				t.Errorf("JSON wire name = %q, want the name as advertised %q", back.Servers[1].Tools[0].Wire, evil)
			}
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := report.Write(&bytes.Buffer{}, &report.Report{}, "yaml")
	if err == nil || err.Error() != `writing report: unknown format "yaml" (want text, json, markdown, sarif, junit)` {
		t.Errorf("Write(yaml) error = %v", err)
	}
}

// A lock file is committed: the transport it pins carries no secret.
func TestTransportOfRedacts(t *testing.T) {
	stdio := surface.EndpointOf(config.ServerSpec{Label: "s", Command: "srv", Args: []string{"--token", "sekrit", "--port", "9"},
		Env: []config.EnvVar{{Key: "API_KEY", Value: "sekrit"}}})
	remote := surface.EndpointOf(config.ServerSpec{Label: "r", URL: "https://h.example/mcp?key=sekrit"})
	for _, tr := range []model.Endpoint{stdio, remote} {
		if s := tr.String(); strings.Contains(s, "sekrit") {
			t.Errorf("transport %s shows a secret", s)
		}
	}
	if got := stdio.String(); got != "srv --token **** --port 9" {
		t.Errorf("stdio transport = %q", got)
	}
	if got := remote.String(); got != "https://h.example/mcp?key=****" {
		t.Errorf("remote transport = %q", got)
	}
}
