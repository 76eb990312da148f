//go:build unix

package cli

import (
	"bytes"
	"errors"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcplens/mcplens/internal/testkit/headless"
)

// TestAppReadErrorSanitizedAndMasked: a server whose app resource cannot be
// read answers with an error quoting the config's secret among terminal
// escapes; mcplens app exits 1 saying why, the escapes shown escaped and
// the secret masked.
func TestAppReadErrorSanitizedAndMasked(t *testing.T) {
	const secret = "app-token-4f9c2e7d1b"
	server := build(t, "../internal/testkit/appserver")
	path := gatedConfig(t, map[string]string{"board": `{"command": "` + server + `", "args": ["-read-error"], "env": {"APP_TOKEN": "` + secret + `"}}`})
	cmd := exec.Command(build(t, ".."), "app", path, "show_board", "--no-open", "--client", "claude-desktop", "--lifetime", "1m")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("mcplens app on an unreadable app: %v, want exit 1\nstderr: %q", err, stderr.String())
	}
	out := stdout.String() + stderr.String()
	if !strings.Contains(stderr.String(), "reading app resource") || !strings.Contains(stderr.String(), "no app for token ****") {
		t.Errorf("stderr does not say why the app was not hosted, its secret masked: %q", stderr.String())
	}
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b", secret} {
		if strings.Contains(out, bad) {
			t.Errorf("mcplens app printed %q raw: %q", bad, out)
		}
	}
}

// TestAppCSPFloodHosted: an app resource whose CSP declares 10,000 origins
// as resourceDomains and 10,000 as connectDomains. Its policy, sent whole,
// is a header of over a megabyte, which Chromium refuses with the page
// (ERR_RESPONSE_HEADERS_TOO_BIG): the app never loads and nothing says why.
// mcplens keeps the first model.MaxAppOrigins of each directive, says so in
// the lint, and the app runs in Chromium under the origins kept.
func TestAppCSPFloodHosted(t *testing.T) {
	path := appsConfig(t, "-origins", "10000")
	r := checkJSON(t, path, "--client", "claude-desktop")
	if !hasFinding(r, "app-csp", "board_state", "names 10000 origins, over the host's 64: the first 64 are kept") {
		t.Errorf("no app-csp finding on the origins left out: %+v", r.Findings)
	}
	_, url, out, errs := startApp(t, path, "show_board")
	resp, err := http.Get(url + "app")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if len(csp) > 64<<10 || !strings.Contains(csp, "https://cdn63.example.com") || strings.Contains(csp, "https://cdn64.example.com") {
		t.Errorf("the app's CSP is %d bytes, want the first 64 origins of each directive alone", len(csp))
	}
	if line, _ := errs.find("hosting the app"); len(line) > 64<<10 {
		t.Errorf("mcplens app said a line of %d bytes", len(line))
	}
	ctx := headless.New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	out.wait(t, `"heard":"done"`, 90*time.Second)
}

// TestAppHugeResourceURI: a tool whose _meta.ui.resourceUri is a megabyte
// has no app: an app-meta finding says why, short, and no row's reason or
// finding quotes the URI (each view and report would carry a megabyte per
// row, the interface redrawing it on every key).
func TestAppHugeResourceURI(t *testing.T) {
	r := checkJSON(t, appsConfig(t, "-uri-size", "1000000"), "--client", "claude-desktop")
	if !hasFinding(r, "app-meta", "huge_app", "over the host's 2048") {
		t.Errorf("no app-meta finding on the huge URI: %+v", r.Findings)
	}
	if row := reportRow(t, r, "board", "huge_app"); len(row.Reason) > 1024 {
		t.Errorf("huge_app's reason is %d bytes", len(row.Reason))
	}
	for _, f := range r.Findings {
		if len(f.Evidence) > 1024 {
			t.Errorf("a %s finding of %d bytes", f.Kind, len(f.Evidence))
		}
	}
}

// TestAppOfFailedServer: a tool of a server that failed to start resolves
// to nothing; mcplens app exits 2 saying so and naming the failed server,
// as call does, rather than only that there is no such tool.
func TestAppOfFailedServer(t *testing.T) {
	server := build(t, "../internal/testkit/appserver")
	missing := "/nonexistent/mcplens-app-server"
	path := gatedConfig(t, map[string]string{
		"board":  `{"command": "` + server + `"}`,
		"broken": `{"command": "` + missing + `"}`,
	})
	cmd := exec.Command(build(t, ".."), "app", path, "broken_tool", "--no-open", "--client", "claude-desktop", "--lifetime", "1m")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("mcplens app on a failed server's tool: %v, want exit 2\nstderr: %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `no tool "broken_tool"`) || !strings.Contains(stderr.String(), "server broken is not in the registry: failed") {
		t.Errorf("stderr does not name the failed server: %q", stderr.String())
	}
}
