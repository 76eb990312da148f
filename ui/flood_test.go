package ui_test

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// A probe passes every message to the interface and reports each key once
// Update has handled it, from inside the running program.
type probe struct {
	tea.Model
	handled chan<- string
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.Model.Update(msg)
	if k, ok := msg.(tea.KeyPressMsg); ok {
		p.handled <- k.String()
	}
	return probe{m, p.handled}, cmd
}

// floodSettle is how long the flood runs before keys are pressed: long
// enough for relistings to pile up behind an interface that cannot keep
// up (each one used to cost some 170 ms of Update, and they came ten a
// second).
const floodSettle = 8 * time.Second

// TestUIFloodOfBigRelistings runs the interface as a real program beside a
// server that sends tools/list_changed 100 times a second and answers each
// tools/list with 6 MB: key presses are answered, each within a deadline
// far above what it takes (the figure is logged), and q ends the program.
func TestUIFloodOfBigRelistings(t *testing.T) {
	// Each listing is 6 MB: on a loaded machine one can take over a
	// second, which is not what this test is about.
	cfg, sess := hostileSessionWithin(t, 30*time.Second, "list-changed-flood-big", nil)
	handled := make(chan string, 16)
	var m tea.Model = ui.New(ui.Options{Title: "flood", Servers: cfg.Servers, Backend: sess})
	p := tea.NewProgram(probe{m, handled}, tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithoutSignals(), tea.WithWindowSize(160, 40))
	var final tea.Model
	done := make(chan struct{})
	go func() {
		defer close(done)
		var err error
		if final, err = p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
			t.Errorf("program: %v", err)
		}
	}()
	t.Cleanup(func() {
		p.Kill()
		<-done
	})
	time.Sleep(floodSettle) // not a wait for anything: the flood running

	press := func(k string) time.Duration {
		t.Helper()
		start := time.Now()
		p.Send(ui.KeyPress(k))
		select {
		case got := <-handled:
			if got != k {
				t.Fatalf("handled %q, want %q", got, k)
			}
		case <-time.After(keyLimit):
			t.Fatalf("%q not handled within %s of being pressed, under the flood", k, keyLimit)
		}
		return time.Since(start)
	}
	var took []string
	for range 10 {
		took = append(took, press("p").Round(time.Millisecond).String())
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("p handled after %s", strings.Join(took, ", "))

	start := time.Now()
	p.Send(ui.KeyPress("q"))
	select {
	case <-done:
	case <-time.After(keyLimit):
		t.Fatalf("the program did not end within %s of q, under the flood", keyLimit)
	}
	t.Logf("the program ended %s after q", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	sess.Close()
	t.Logf("the session closed in %s", time.Since(start).Round(time.Millisecond))

	// Ten presses of p from the first policy.
	if got, want := final.(probe).Model.(ui.Model).Policy(), model.Policies()[10%len(model.Policies())].Name; got != want {
		t.Errorf("policy after ten p = %s, want %s", got, want)
	}
	if got := screen(final.(probe).Model); !strings.Contains(got, "generation_") {
		t.Errorf("the flooding server's list is not shown:\n%s", got)
	}
}

// closedBackend is a backend whose events have all been read.
type closedBackend struct{ quietBackend }

func (closedBackend) Events() <-chan mcpsession.Event {
	ch := make(chan mcpsession.Event)
	close(ch)
	return ch
}

// runAll runs cmd, and the commands of every batch it returns, in turn,
// and returns their messages.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var msgs []tea.Msg
		for _, c := range msg {
			msgs = append(msgs, runAll(c)...)
		}
		return msgs
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

// bigList is 2,000 tools with 3 KB descriptions, about 6 MB, then extra
// tools by name; the description of each tool named in changed differs.
func bigList(extra []string, changed ...string) []model.Tool {
	desc := strings.Repeat("A long description that says the same thing again and again. ", 48)
	var raw []string
	for i := range 2000 {
		name := fmt.Sprintf("tool_%05d", i)
		d := desc
		if slices.Contains(changed, name) {
			d = "Changed. " + desc
		}
		raw = append(raw, fmt.Sprintf(`{"name":%q,"description":%q,"inputSchema":{"type":"object"}}`, name, d))
	}
	for _, name := range extra {
		raw = append(raw, fmt.Sprintf(`{"name":%q}`, name))
	}
	return listed(raw...)
}

// A re-listing of 6 MB is compared with the list before it off Update
// (what Update itself costs: BenchmarkBigRelist), and the rows get their
// marks when the comparison's message comes back. A comparison that finishes after a
// newer list arrived is dropped, and the newest list is compared with the
// one just before it.
func TestBigRelistComparedInBackground(t *testing.T) {
	spec := config.ServerSpec{Label: "big", Command: "srv"}
	var m tea.Model = ui.New(ui.Options{Title: "big", Servers: []config.ServerSpec{spec}, Backend: closedBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	ready := func(tools []model.Tool) (tea.Model, []tea.Msg) {
		t.Helper()
		m, cmd := m.Update(ui.EventMsg(mcpsession.Event{Server: "big", State: mcpsession.Ready, Tools: tools}))
		return m, runAll(cmd)
	}
	m, _ = ready(bigList([]string{"gone"}))
	m, msgs := ready(bigList([]string{"fresh"}, "tool_00001"))
	if got := screen(m); strings.Contains(got, "+fresh") || strings.Contains(got, "removed since the previous list") {
		t.Errorf("the rows are marked before the comparison ran:\n%s", got)
	}
	// A third list arrives before the comparison of the second is back.
	m, third := ready(bigList([]string{"fresh", "newest"}, "tool_00001", "tool_00002"))
	if len(third) != 1 { // the events' wait only: one comparison at a time
		t.Errorf("a third list started %d commands, want the wait for events only", len(third))
	}
	var next []tea.Msg
	for _, msg := range msgs {
		var cmd tea.Cmd
		m, cmd = m.Update(msg) // the second list's comparison: dropped
		next = append(next, runAll(cmd)...)
	}
	for _, msg := range next {
		m, _ = m.Update(msg) // the third's, with the second
	}
	got := screen(m) + screen(press(m, "G"))
	for _, want := range []string{"+newest", "~tool_00002"} {
		if !strings.Contains(got, want) {
			t.Errorf("after the comparison the screen lacks %q:\n%s", want, got)
		}
	}
	for _, stale := range []string{"+fresh", "~tool_00001", "removed since the previous list: gone"} {
		if strings.Contains(got, stale) {
			t.Errorf("the screen shows %q, a change of the second list, not the newest:\n%s", stale, got)
		}
	}
}

// A Ready event sent again with the same list, because the server
// committed a new protocol fault, keeps the marks of the last re-listing.
func TestRelistMarksSurviveFindings(t *testing.T) {
	spec := config.ServerSpec{Label: "m", Command: "srv"}
	v1 := listed(`{"name":"search","description":"Searches."}`)
	v2 := listed(`{"name":"search","description":"Searches, then uploads."}`, `{"name":"upload"}`)
	var m tea.Model = ui.New(ui.Options{Title: "test config", Servers: []config.ServerSpec{spec}, Backend: quietBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v1}))
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v2}))
	fault := model.Finding{Kind: "protocol", Server: "m", Evidence: "answers id 9999, which no request is waiting for"}
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "m", State: mcpsession.Ready, Tools: v2, Findings: []model.Finding{fault}}))
	got := screen(m)
	for _, want := range []string{"~search", "+upload", "protocol: answers id 9999"} {
		if !strings.Contains(got, want) {
			t.Errorf("after the fault the screen lacks %q:\n%s", want, got)
		}
	}
}

// With the findings view open, a server re-listing 6 MB has its findings
// looked for in the background, though it lists fewer rows than make a
// surface large: the view says it is looking meanwhile.
func TestBigListFindingsInBackground(t *testing.T) {
	spec := config.ServerSpec{Label: "big", Command: "srv"}
	var m tea.Model = ui.New(ui.Options{Title: "big", Servers: []config.ServerSpec{spec}, Backend: closedBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "big", State: mcpsession.Ready, Tools: bigList([]string{"a\u202eb"})}))
	m = press(m, "5")
	if got := screen(m); !strings.Contains(got, "looking for findings for 2001 rows") {
		t.Errorf("the findings view does not say it is looking:\n%s", got)
	}
	if got := screen(ui.Settle(m)); !strings.Contains(got, "invisible-text") && !strings.Contains(got, "control-text") {
		t.Errorf("the findings view lacks the bidi override's finding once settled:\n%s", got)
	}
}

// BenchmarkBigRelist measures Update for a server re-listing 6 MB: the
// comparison with the list before runs off Update, so Update allocates a
// small part of the list (B/op against list-B).
func BenchmarkBigRelist(b *testing.B) {
	spec := config.ServerSpec{Label: "big", Command: "srv"}
	lists := [2][]model.Tool{bigList([]string{"gone"}), bigList([]string{"fresh"}, "tool_00001")}
	size := 0
	for _, tl := range lists[1] {
		size += len(tl.Raw)
	}
	var m tea.Model = ui.New(ui.Options{Title: "big", Servers: []config.ServerSpec{spec}, Backend: closedBackend{}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "big", State: mcpsession.Ready, Tools: lists[i%2]}))
		i++
	}
	b.ReportMetric(float64(size), "list-B")
}
