package ui_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/ui"
)

// TestUIMasksSecretsInErrors connects to three loopback HTTP servers that
// fail: one is gone, and the error quotes its URL with a token in the
// query; one wants authorization, reached with a token in the query too;
// one echoes the configured X-Api-Key header in its error body. None of
// the secrets shows on any view, pane or the report the r key writes;
// mcplens's hint about tokens shows as written.
func TestUIMasksSecretsInErrors(t *testing.T) {
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	defer auth.Close()
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "rejected "+r.Header.Get("X-Api-Key"), http.StatusInternalServerError)
	}))
	defer echo.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens there any more: the connect error quotes the URL
	cfg := &config.Config{Path: "secrets.json", Servers: []config.ServerSpec{
		{Label: "gone", Transport: config.TransportHTTP, URL: closed.URL + "/mcp?token=QTOKEN43", Timeout: 10 * time.Second},
		{Label: "auth", Transport: config.TransportHTTP, URL: auth.URL + "/mcp?token=QTOKEN42", Timeout: 10 * time.Second},
		{Label: "echo", Transport: config.TransportHTTP, URL: echo.URL + "/mcp", Timeout: 10 * time.Second,
			Headers: []config.Header{{Name: "X-Api-Key", Value: "HEADERVALUE77"}}},
	}}
	sess := loader.Open(cfg, loader.Options{})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "secrets", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 400, Height: 50})
	m = settle(t, m, cfg, sess)

	var seen strings.Builder
	for _, keys := range [][]string{{}, {"G"}, {"2"}, {"3"}, {"4"}, {"5"}, {"1", "w"}, {"w", "?"}} {
		m = press(m, keys...)
		seen.WriteString(screen(m))
	}
	var md bytes.Buffer
	if err := report.Write(&md, m.(ui.Model).Report(), "markdown"); err != nil {
		t.Fatal(err)
	}
	seen.WriteString(md.String())
	all := seen.String()
	for _, secret := range []string{"QTOKEN42", "QTOKEN43", "HEADERVALUE77"} {
		if strings.Contains(all, secret) {
			t.Errorf("the interface shows the secret %s:\n%s", secret, all)
		}
	}
	if !strings.Contains(all, "give a token in the config's headers") {
		t.Errorf("the authorization hint is not shown as written:\n%s", all)
	}
	if !strings.Contains(all, "/mcp?token=****") {
		t.Errorf("the unreachable server's URL is not shown masked:\n%s", all)
	}
	if !strings.Contains(all, "rejected ****") {
		t.Errorf("the echoed header is not shown masked:\n%s", all)
	}
}

// hostileConfig writes a Cursor config of three hostile servers: one
// writes junk on stdout, one answers ids nobody asked for, and one is
// started with an unset ${env:...} and a key Cursor does not read.
func hostileConfig(t *testing.T) *config.Config {
	t.Helper()
	bin := hostile.Path(t)
	data := fmt.Sprintf(`{"mcpServers": {
  "junk": {"command": %[1]q, "args": ["-mode", "junk"]},
  "stray": {"command": %[1]q, "args": ["-mode", "stray"]},
  "envy": {"command": %[1]q, "args": ["-mode", "ok", "-token", "${env:MCPLENS_TEST_UNSET}"], "bogus": true}
}}`, bin)
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.ParseWith(path, []byte(data), config.Options{Format: "cursor",
		LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// teeBackend hands the interface the events a tee gives it.
type teeBackend struct {
	*loader.Session
	events chan mcpsession.Event
}

func (b teeBackend) Events() <-chan mcpsession.Event { return b.events }

// TestFindingsAgree runs a hostile config once, handing every event both
// to check's collector (surface.Collect) and to the interface, and checks
// that the findings view and check's report list the same findings, in
// the same order: among them the protocol faults of the junk and stray
// servers and the config findings of the third.
func TestFindingsAgree(t *testing.T) {
	cfg := hostileConfig(t)
	sess := loader.Open(cfg, loader.Options{})
	t.Cleanup(func() { sess.Close() })
	toCheck, toUI := make(chan mcpsession.Event), make(chan mcpsession.Event, 1<<16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer close(toUI)
		for {
			var ev mcpsession.Event
			select {
			case ev = <-sess.Events():
			case <-ctx.Done():
				return
			}
			// check first: an event check never read is not given to
			// the interface either.
			select {
			case toCheck <- ev:
			case <-ctx.Done():
				return
			}
			toUI <- ev
		}
	}()
	collectCtx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	snap := surface.New(cfg.Servers, cfg.Findings)
	if err := surface.Collect(collectCtx, toCheck, snap); err != nil {
		t.Fatalf("servers did not settle: %v", err)
	}
	cancel()
	view := ui.New(ui.Options{Title: "hostile", Servers: cfg.Servers, Backend: teeBackend{sess, toUI}, ConfigFindings: cfg.Findings, Policy: "lionagi"})
	var m tea.Model = view
	for ev := range toUI {
		m, _ = m.Update(ui.EventMsg(ev))
	}
	policy, _ := model.PolicyNamed("lionagi")
	r := report.Build(cfg.Path, surface.Assess(snap, surface.Options{Policy: policy, Profiles: model.DefaultProfiles()}))

	tuiList := ui.FindingList(m)
	var tuiRows, checkRows []string
	for _, f := range tuiList {
		tuiRows = append(tuiRows, f.Severity.String()+" "+f.Kind+" "+f.Server+": "+f.Evidence)
	}
	count := map[string]int{}
	for _, f := range r.Findings {
		checkRows = append(checkRows, f.Severity.String()+" "+f.Kind+" "+f.Server+": "+f.Evidence)
		count[f.Kind+" "+f.Server]++
		if (f.Kind == "config" || f.Kind == "protocol") && f.Severity != report.Warning {
			t.Errorf("%s finding on %s at %s, want warning", f.Kind, f.Server, f.Severity)
		}
	}
	if !slices.Equal(tuiRows, checkRows) {
		t.Errorf("the findings view lists %d findings, check %d\nview:\n%s\ncheck:\n%s",
			len(tuiRows), len(checkRows), strings.Join(tuiRows, "\n"), strings.Join(checkRows, "\n"))
	}
	for _, want := range []string{"protocol junk", "protocol stray", "config envy"} {
		if count[want] == 0 {
			t.Errorf("check lists no %q finding:\n%s", want, strings.Join(checkRows, "\n"))
		}
	}
	if count["config envy"] < 2 {
		t.Errorf("check lists %d config findings on envy, want the unset variable and the unknown key:\n%s",
			count["config envy"], strings.Join(checkRows, "\n"))
	}
	if lvl, ok := r.Worst(); !ok || lvl < report.Warning {
		t.Errorf("Worst() = %v, %v: --fail-on warning would pass", lvl, ok)
	}
}
