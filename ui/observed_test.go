package ui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// offlineModel opens the recordings under testdata/recordings (the demo
// servers alpha and beta through real taps, a real client calling each
// one's request) as `mcplens CAPTURE.jsonl` does, under policy, its
// events read from the offline backend.
func offlineModel(t *testing.T, policy string) tea.Model {
	t.Helper()
	return openRecordings(t, policy, "../testdata/recordings/alpha.jsonl", "../testdata/recordings/beta.jsonl")
}

// openRecordings opens the recordings at paths as `mcplens CAPTURE.jsonl`
// does, under policy.
func openRecordings(t *testing.T, policy string, paths ...string) tea.Model {
	t.Helper()
	c, err := capture.Read(capture.ReadOptions{Frames: true}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	b := capture.NewBackend(c)
	m := ui.New(ui.Options{Title: "recordings (offline recording)", Servers: c.Specs(), Backend: b, Policy: policy, Client: "claude-code@2.1"})
	return readAll(m, b, 140, 40)
}

// readAll sizes m and gives it every event of b, until b closes them.
func readAll(m tea.Model, b ui.Backend, width, height int) tea.Model {
	m, _ = m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	for {
		msg := ui.NextEvents(b)
		if ui.Events(msg) == nil {
			break
		}
		m, _ = m.Update(msg)
	}
	return ui.Settle(m)
}

// detailOf moves the cursor down until the detail pane is of head.
func detailOf(t *testing.T, m tea.Model, head string) tea.Model {
	t.Helper()
	for range 20 {
		if _, detail, ok := strings.Cut(screen(m), "DETAIL"); ok && strings.Contains(detail, head) {
			return m
		}
		m = press(m, "j")
	}
	t.Fatalf("no row's detail is of %q:\n%s", head, screen(m))
	return m
}

// TestOfflineObservedCalls: the detail pane of the row a recorded call
// reached says whether the call matches the route the registry shown
// predicts, judged again when the policy changes; the wire pane shows the
// recorded frames.
func TestOfflineObservedCalls(t *testing.T) {
	m := offlineModel(t, "lionagi-legacy")
	m = detailOf(t, m, "beta · request")
	got := screen(m)
	if !strings.Contains(got, "observed: 1 call(s), 1 answered") || !strings.Contains(got, "✗ contradicts reached beta, but the registry routes request to alpha's request") {
		t.Errorf("beta's request does not say its recorded call contradicts the route:\n%s", got)
	}
	golden(t, "offline-observed", steady(got))

	m = detailOf(t, press(m, "k", "k", "k", "k"), "alpha · request")
	if got := screen(m); !strings.Contains(got, "✓ matches request routes to alpha's request") {
		t.Errorf("alpha's request does not say its recorded call matches:\n%s", got)
	}

	// Claude Code's policy routes each server's request apart: both match.
	m = ui.Settle(press(m, "p"))
	for m.(ui.Model).Policy() != "claude-code" {
		m = ui.Settle(press(m, "p"))
	}
	m = detailOf(t, m, "beta · request")
	if got := screen(m); !strings.Contains(got, "✓ matches mcp__beta__request routes to beta's request") {
		t.Errorf("under claude-code beta's call does not match:\n%s", got)
	}

	wire := screen(press(m, "w"))
	for _, want := range []string{"initialize", "tools/list", "tools/call", "request"} {
		if !strings.Contains(wire, want) {
			t.Errorf("the wire pane lacks the recorded %s:\n%s", want, wire)
		}
	}
	golden(t, "offline-wire", steady(wire))
}

// TestCallsPane: t lists every call the tapped client made, in order, each
// judged against the registry shown, a call to a name no server listed
// among them (it has no row in the views), and follows the policy.
func TestCallsPane(t *testing.T) {
	beta, err := os.ReadFile("../testdata/recordings/beta.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	stray := `{"t":"2026-12-01T14:06:04Z","server":"beta","dir":"c2s","frame":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{"x":1}}}}
{"t":"2026-12-01T14:06:04.0021Z","server":"beta","dir":"s2c","frame":{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"unknown tool nope\u001b]0;pwned\u0007"}}}
`
	path := filepath.Join(t.TempDir(), "beta.jsonl")
	if err := os.WriteFile(path, append(beta, stray...), 0o600); err != nil {
		t.Fatal(err)
	}
	m := openRecordings(t, "lionagi-legacy", "../testdata/recordings/alpha.jsonl", path)
	got := screen(press(m, "t"))
	for _, want := range []string{
		"CLIENT CALLS 3 calls · judged under lionagi-legacy · client claude-code@2.1",
		`alpha request {"verb":"list"}`, "✓ matches request routes to alpha's request",
		"✗ contradicts reached beta, but the registry routes request to alpha's request",
		`beta nope {"x":1} (2.1ms error: unknown tool nope\x1b]0;pwned\a)`, "✗ contradicts",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the calls pane lacks %q:\n%s", want, got)
		}
	}
	if raw := press(m, "t").View().Content; strings.Contains(raw, "\x1b]0;") {
		t.Errorf("the server's error text reached the terminal unsanitized: %q", raw)
	}
	golden(t, "calls-pane", steady(got))
	if got := screen(press(m, "t", "t")); strings.Contains(got, "CLIENT CALLS") {
		t.Errorf("t did not close the calls pane:\n%s", got)
	}
}

// TestCallsPaneSaysWhatWasNotKept: a recording whose tap left chunks out
// of its copy (calls among them are missing) says so in the calls pane,
// where the calls are.
func TestCallsPaneSaysWhatWasNotKept(t *testing.T) {
	beta, err := os.ReadFile("../testdata/recordings/beta.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "beta.jsonl")
	dropped := `{"t":"2026-12-01T14:06:04Z","server":"beta","dropped":3}` + "\n"
	if err := os.WriteFile(path, append(beta, dropped...), 0o600); err != nil {
		t.Fatal(err)
	}
	m := openRecordings(t, "lionagi-legacy", "../testdata/recordings/alpha.jsonl", path)
	if got := screen(press(m, "t")); !strings.Contains(got, "not shown: 3 chunks left out of the tap's copy") {
		t.Errorf("the calls pane does not say what the tap left out:\n%s", got)
	}
	if got := screen(press(offlineModel(t, "lionagi-legacy"), "t")); strings.Contains(got, "not shown") {
		t.Errorf("the calls pane of complete recordings says something was not kept:\n%s", got)
	}
}

// TestDeclaredServers: servers no config lists join the interface when
// their first event declares them (the taps mcplens watch finds), with
// their tools, kept as last listed when the tap ends, and a place in the
// wire pane's cycle.
func TestDeclaredServers(t *testing.T) {
	events := make(chan mcpsession.Event, 4)
	gamma := config.ServerSpec{Label: "gamma", Transport: config.TransportStdio, Command: "node", Args: []string{"g.js"}}
	events <- mcpsession.Event{Server: "gamma", State: mcpsession.Connecting, Declare: &gamma}
	events <- mcpsession.Event{Server: "gamma", State: mcpsession.Ready, Tools: listed(`{"name":"fetch","description":"Fetches."}`)}
	events <- mcpsession.Event{Server: "gamma", State: mcpsession.Closed, Err: "the tap ended"}
	close(events)
	b := chanBackend{events: events}
	m := readAll(ui.New(ui.Options{Title: "taps (watching)", Backend: b}), b, 120, 30)
	if got := screen(m); !strings.Contains(got, "gamma") || !strings.Contains(got, "fetch") || !strings.Contains(got, "ended: as last listed") {
		t.Fatalf("the declared server, its tool and the end of its tap are not shown:\n%s", got)
	}
	if got := screen(press(m, "w", "s")); !strings.Contains(got, "gamma") {
		t.Errorf("the wire pane's server cycle lacks gamma:\n%s", got)
	}
	if got := screen(press(m, "t")); !strings.Contains(got, "CLIENT CALLS none") {
		t.Errorf("the calls pane of a backend that shows no client says otherwise:\n%s", got)
	}
}

// chanBackend serves the events of its channel.
type chanBackend struct {
	quietBackend
	events chan mcpsession.Event
}

func (b chanBackend) Events() <-chan mcpsession.Event { return b.events }
