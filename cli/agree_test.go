package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/ui"
)

// One snapshot, one answer: the interface and check, given the same
// events, say the same thing of every server and list the same findings.

// A session is one config connected once: the events its session sent until
// every server settled.
type session struct {
	cfg    *config.Config
	events []mcpsession.Event
}

// runs memoizes the sessions of this test binary, one per config, so the
// tests below share them.
var runs struct {
	sync.Mutex
	done map[string]*session
}

// connectOnce connects to every server of cfg once per test binary and
// returns the events until each settled.
func connectOnce(t *testing.T, name string, cfg func(t *testing.T) *config.Config) *session {
	t.Helper()
	runs.Lock()
	defer runs.Unlock()
	if r, ok := runs.done[name]; ok {
		return r
	}
	r := &session{cfg: cfg(t)}
	sess := loader.Open(r.cfg, loader.Options{Timeout: 10 * time.Second})
	defer sess.Close()
	snap := surface.New(r.cfg.Servers, r.cfg.Findings)
	deadline := time.After(60 * time.Second)
	for !snap.Settled() {
		select {
		case ev, ok := <-sess.Events():
			if !ok {
				t.Fatalf("%s: events closed before every server settled", name)
			}
			r.events = append(r.events, ev)
			snap.Apply(ev)
		case <-deadline:
			t.Fatalf("%s: servers still connecting after 60s", name)
		}
	}
	if runs.done == nil {
		runs.done = map[string]*session{}
	}
	runs.done[name] = r
	return r
}

// replay is a backend that hands the interface the events of a session,
// then ends.
type replay struct{ events chan mcpsession.Event }

func replayOf(events []mcpsession.Event) replay {
	ch := make(chan mcpsession.Event, len(events))
	for _, ev := range events {
		ch <- ev
	}
	close(ch)
	return replay{ch}
}

func (b replay) Events() <-chan mcpsession.Event    { return b.events }
func (replay) FrameLog(string) *mcpsession.FrameLog { return nil }
func (replay) Stderr(string) string                 { return "" }
func (replay) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	return mcpsession.CallResult{}, fmt.Errorf("replay: no calls")
}

// drive runs cmd and every command the model answers with, feeding each
// message to the model, until none is left: the program's loop without a
// terminal. The spinner's ticks are dropped, or it would never end.
func drive(m tea.Model, cmd tea.Cmd) tea.Model {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, spinner.TickMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			var next tea.Cmd
			m, next = m.Update(msg)
			queue = append(queue, next)
		}
	}
	return m
}

// interfaceOf is the interface as main opens it on r's config, fed r's
// events, on a screen large enough to show every line.
func interfaceOf(r *session) tea.Model {
	m := ui.New(ui.Options{Title: r.cfg.Path, Servers: r.cfg.Servers, Backend: replayOf(r.events), ConfigFindings: r.cfg.Findings})
	var tm tea.Model = m
	tm = drive(tm, tm.Init())
	// Every server line, tool row and finding fits: a few lines per row,
	// a few more per server.
	rows := map[string]int{}
	for _, ev := range r.events {
		if ev.State == mcpsession.Ready {
			rows[ev.Server] = len(ev.Tools)
		}
	}
	height := 100 + 20*len(r.cfg.Servers)
	for _, n := range rows {
		height += 4 * n
	}
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 300, Height: height})
	return tm
}

// checkOf is check's report on r under policy: the events replayed into
// check's collector, then check's report.
func checkOf(t *testing.T, r *session, policy string) *report.Report {
	t.Helper()
	events := make(chan mcpsession.Event, len(r.events))
	for _, ev := range r.events {
		events <- ev
	}
	close(events)
	snap := surface.New(r.cfg.Servers, r.cfg.Findings)
	if err := surface.Collect(context.Background(), events, snap); err != nil {
		t.Fatal(err)
	}
	o := defaultCheckOptions()
	o.policy = policy
	return checkReport(r.cfg, snap, o, nil, nil)
}

func key(k string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(k)[0], Text: k} }

// screen is what the interface shows after pressing keys, escapes
// stripped, once what the keys made it compute has arrived: the commands
// each key returns run as the program would run them, and what a view
// derives (derive.go in ui) is handed back to the interface until the
// screen no longer says it is computing, within a deadline.
func screen(m tea.Model, keys ...string) (tea.Model, string) {
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(key(k))
		m = untilComputed(m, cmd)
	}
	return m, ansi.Strip(m.View().Content)
}

// computing is what a view says while its rows are being computed.
var computing = regexp.MustCompile(`looking for findings|applying every policy`)

// untilComputed runs cmd, and what it returns, in the background, handing
// back to m each derived value, until m's screen no longer says it is
// computing. Other messages (ticks, events) are dropped: the snapshot is
// settled already.
func untilComputed(m tea.Model, cmd tea.Cmd) tea.Model {
	msgs := make(chan tea.Msg, 64)
	var launch func(tea.Cmd)
	launch = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			switch msg := c().(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range msg {
					launch(c)
				}
			default:
				if strings.Contains(fmt.Sprintf("%T", msg), "derivedMsg") {
					msgs <- msg
				}
			}
		}()
	}
	launch(cmd)
	deadline := time.After(2 * time.Minute)
	for computing.MatchString(ansi.Strip(m.View().Content)) {
		select {
		case msg := <-msgs:
			m, cmd = m.Update(msg)
			launch(cmd)
		case <-deadline:
			panic("the interface still computes after 2m:\n" + ansi.Strip(m.View().Content))
		}
	}
	return m
}

// A shown is what the interface's screens say, counted as check counts.
type shown struct {
	summary  report.Summary
	statuses []string
	findings []string // "level kind server tool", as listed
}

var (
	serverLine  = regexp.MustCompile(`^\S+ (.+?)  (stdio|http|sse)  (connecting(?: \d+s)?|failed by policy|failed|closed|incomplete|ok)(?:  |$)`)
	countsPart  = regexp.MustCompile(`  advertised (\d+) · registered (\d+)`)
	findingLine = regexp.MustCompile(`^  (error|warning|info) +(\S+) +(\S*) +`)
)

// read counts what the servers view and the findings view show.
func read(t *testing.T, m tea.Model) (tea.Model, shown) {
	t.Helper()
	var s shown
	m, servers := screen(m, "1")
	for _, l := range strings.Split(servers, "\n") {
		g := serverLine.FindStringSubmatch(l)
		if g == nil {
			continue
		}
		s.summary.Servers++
		status := g[3]
		switch status {
		case "failed":
			s.summary.Failed++
		}
		s.statuses = append(s.statuses, g[1]+" "+status)
		if c := countsPart.FindStringSubmatch(l); c != nil {
			adv, _ := strconv.Atoi(c[1])
			reg, _ := strconv.Atoi(c[2])
			s.summary.Advertised += adv
			s.summary.Registered += reg
		}
	}
	m, findings := screen(m, "5")
	for _, l := range strings.Split(findings, "\n") {
		g := findingLine.FindStringSubmatch(l)
		if g == nil {
			continue
		}
		switch g[1] {
		case "error":
			s.summary.Errors++
		case "warning":
			s.summary.Warnings++
		}
		s.findings = append(s.findings, g[1]+" "+g[2])
	}
	return m, s
}

// said is what check's report says, in the terms of shown.
func said(r *report.Report) shown {
	s := shown{summary: r.Summary}
	for _, sv := range r.Servers {
		s.statuses = append(s.statuses, model.Sanitize(sv.Label)+" "+sv.Status)
	}
	for _, f := range r.Findings {
		s.findings = append(s.findings, f.Severity.String()+" "+f.Kind)
	}
	return s
}

// agree runs cfg once and checks, under every policy, that the interface
// shows what check reports; it returns the run for further checks.
func agree(t *testing.T, name string, cfg func(t *testing.T) *config.Config) *session {
	t.Helper()
	r := connectOnce(t, name, cfg)
	m := interfaceOf(r)
	for _, p := range model.Policies() {
		if got := m.(ui.Model).Policy(); got != p.Name {
			t.Fatalf("p cycled to policy %s, want %s", got, p.Name)
		}
		var tui shown
		m, tui = read(t, m)
		want := said(checkOf(t, r, p.Name))
		if tui.summary != want.summary {
			t.Errorf("%s under %s: the interface shows %+v, check reports %+v", name, p.Name, tui.summary, want.summary)
		}
		if a, b := strings.Join(tui.statuses, "\n"), strings.Join(want.statuses, "\n"); a != b {
			t.Errorf("%s under %s: statuses differ\ninterface:\n%s\ncheck:\n%s", name, p.Name, a, b)
		}
		if a, b := strings.Join(tui.findings, "\n"), strings.Join(want.findings, "\n"); a != b {
			t.Errorf("%s under %s: findings differ\ninterface:\n%s\ncheck:\n%s", name, p.Name, a, b)
		}
		m, _ = screen(m, "p")
	}
	return r
}

// testdataConfigs returns every config file under testdata/configs that
// loads, by path.
func testdataConfigs(t *testing.T) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir("../testdata/configs", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".json", ".toml", ".jsonc":
			if _, err := config.Load(path); err == nil {
				paths = append(paths, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 10 {
		t.Fatalf("found %d configs under testdata/configs: %v", len(paths), paths)
	}
	return paths
}

// hermetic loads the config at path with its servers kept on this
// machine: "mcplens" is this test binary (a demo server), any other
// command one that does not exist, and a URL a closed local port. Nothing
// is installed or fetched; the config's own findings are unchanged.
func hermetic(path string) func(t *testing.T) *config.Config {
	return func(t *testing.T) *config.Config {
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range cfg.Servers {
			s := &cfg.Servers[i]
			switch {
			case s.URL != "":
				s.URL = "http://127.0.0.1:1/mcp"
			case filepath.Base(s.Command) == "mcplens":
				s.Command = os.Args[0]
			case s.Command != "":
				s.Command = "/nonexistent/" + filepath.Base(s.Command)
			}
		}
		return cfg
	}
}

// hostileConfig writes a config of servers running the hostile server in
// modes, one server per mode, labelled by it, and loads it.
func hostileConfig(modes ...string) func(t *testing.T) *config.Config {
	return func(t *testing.T) *config.Config {
		bin := hostile.Path(t)
		servers := map[string]any{}
		var order []string
		for _, mode := range modes {
			args := []string{"-mode", mode}
			if mode == "many" {
				args = append(args, "-tools", "300", "-page", "100")
			}
			servers[mode] = map[string]any{"command": bin, "args": args}
			order = append(order, fmt.Sprintf("%q: %s", mode, must(json.Marshal(servers[mode]))))
		}
		data := `{"mcpServers": {` + strings.Join(order, ",\n") + `}}`
		path := filepath.Join(t.TempDir(), "mcp.json")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func demoCfg(*testing.T) *config.Config { return demo.Config(os.Args[0]) }

// fourteen is a config of fourteen hostile servers: some fail, most break
// the protocol one way or another, and several lose tools to the others.
var fourteen = hostileConfig("ok", "exit-start", "exit-initialize", "exit-list", "junk", "stray", "bad-rows",
	"cursor-loop", "escapes", "string-id", "batch-answer", "nan-answer", "deep-answer", "many")

// TestOneAnswer: on every config in testdata/ and on the hostile configs,
// under every policy, the interface's servers view and findings view count
// what check's report counts, server for server and finding for finding.
func TestOneAnswer(t *testing.T) {
	t.Run("demo", func(t *testing.T) { agree(t, "demo", demoCfg) })
	for _, path := range testdataConfigs(t) {
		t.Run(filepath.ToSlash(strings.TrimPrefix(path, "../testdata/configs/")), func(t *testing.T) {
			agree(t, path, hermetic(path))
		})
	}
	t.Run("hostile/fourteen", func(t *testing.T) { agree(t, "fourteen", fourteen) })
	t.Run("hostile/findings", func(t *testing.T) { agree(t, "junk-stray", hostileConfig("junk", "stray")) })
	t.Run("hostile/config", func(t *testing.T) { agree(t, "envy", envyConfig) })
}

// envyConfig is a Cursor config with a key Cursor does not read and a
// variable that is not set, and comments, which strict JSON rejects.
func envyConfig(t *testing.T) *config.Config {
	data := fmt.Sprintf(`{"mcpServers": {
  // the file says things of itself too
  "envy": {"command": %[1]q, "args": ["-mode", "ok", "-token", "${env:MCPLENS_TEST_UNSET}"], "bogus": true},
  "junk": {"command": %[1]q, "args": ["-mode", "junk"]},
}}`, hostile.Path(t))
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.ParseWith(path, []byte(data), config.Options{Format: "cursor",
		LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers[0].Findings) == 0 {
		t.Fatalf("envy has no config finding")
	}
	return cfg
}

// under is the interface on r switched to policy with p, and the two
// screens read shows: the servers view and the findings view.
func under(t *testing.T, r *session, policy string) (servers, findings string, s shown) {
	t.Helper()
	m := interfaceOf(r)
	for range model.Policies() {
		if m.(ui.Model).Policy() == policy {
			break
		}
		m, _ = screen(m, "p")
	}
	if got := m.(ui.Model).Policy(); got != policy {
		t.Fatalf("no policy %s", policy)
	}
	m, servers = screen(m, "1")
	m, findings = screen(m, "5")
	_, s = read(t, m)
	return servers, findings, s
}

// A server that lists a row without a usable name is incomplete in both
// (the interface said incomplete, check said ok).
func TestNamelessRowIncompleteInBoth(t *testing.T) {
	r := agree(t, "bad-rows", hostileConfig("bad-rows"))
	rep := checkOf(t, r, "lionagi-legacy")
	if got := rep.Servers[0].Status; got != "incomplete" {
		t.Errorf("check: bad-rows is %s, want incomplete", got)
	}
	if _, _, s := under(t, r, "lionagi-legacy"); strings.Join(s.statuses, ",") != "bad-rows incomplete" {
		t.Errorf("interface: %v, want bad-rows incomplete", s.statuses)
	}
}

// Protocol faults are findings in both, at warning.
func TestProtocolFaultsInBoth(t *testing.T) {
	r := agree(t, "junk-stray", hostileConfig("junk", "stray"))
	rep := checkOf(t, r, "lionagi-legacy")
	on := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Kind == "protocol" && f.Severity == report.Warning {
			on[f.Server] = true
		}
	}
	if !on["junk"] || !on["stray"] {
		t.Errorf("check lists protocol warnings on %v, want junk and stray", on)
	}
	if _, findings, _ := under(t, r, "lionagi-legacy"); strings.Count(findings, "  warning  protocol ") < 2 {
		t.Errorf("the findings view lacks the protocol warnings:\n%s", findings)
	}
}

// The findings view lists the errors check reports: a tool lost to a
// collision, a server that failed (it said "nothing to show" beside
// check's errors).
func TestFindingsViewListsErrors(t *testing.T) {
	path := "../testdata/configs/collisions/same-wire-name.json"
	r := agree(t, path, hermetic(path))
	_, findings, s := under(t, r, "lionagi-legacy")
	if strings.Contains(findings, "nothing to show") || !strings.Contains(findings, "  error    tool-lost ") {
		t.Errorf("the findings view does not list beta's lost request:\n%s", findings)
	}
	if want := checkOf(t, r, "lionagi-legacy").Summary.Errors; want == 0 || s.summary.Errors != want {
		t.Errorf("the findings view lists %d errors, check %d", s.summary.Errors, want)
	}
	f := agree(t, "fourteen", fourteen)
	if rep := checkOf(t, f, "lionagi"); rep.Summary.Errors == 0 || rep.Summary.Failed != 3 {
		t.Errorf("check on fourteen hostile servers: %+v, want errors and 3 failed", rep.Summary)
	}
}

// A server lionagi fails shows registered 0, and its error says so (it
// read "advertised 3 tool(s) but 1 registered" beside "registered 0").
func TestPolicyFailedSaysWhatIsRegistered(t *testing.T) {
	r := agree(t, "demo", demoCfg)
	const none = "none of its tools is registered: the policy fails the server as a whole"
	rep := checkOf(t, r, "lionagi")
	g := rep.Servers[2]
	if g.Label != "gamma" || g.Registered != 0 || !strings.Contains(g.Error, "but 1 registered") || !strings.HasSuffix(g.Error, none) {
		t.Errorf("check: gamma registered %d, error %q, want 0 and an error ending %q", g.Registered, g.Error, none)
	}
	servers, _, _ := under(t, r, "lionagi")
	if !strings.Contains(servers, "advertised 3 · registered 0") || !strings.Contains(servers, none) {
		t.Errorf("the servers view does not say gamma registered nothing:\n%s", servers)
	}
}
