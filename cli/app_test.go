//go:build unix

package cli

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcplens/mcplens/internal/testkit/headless"
)

// lines collects what a process writes, line by line, for a test to poll.
type lines struct {
	mu  sync.Mutex
	all []string
}

func (l *lines) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		l.mu.Lock()
		l.all = append(l.all, sc.Text())
		l.mu.Unlock()
	}
}

// wait polls until a line contains want, and returns it; the test fails
// at the deadline.
func (l *lines) wait(t *testing.T, want string, deadline time.Duration) string {
	t.Helper()
	l.waitAll(t, deadline, "", want)
	s, _ := l.find(want)
	return s
}

// waitAll polls until a line starts with prefix and holds each of parts.
func (l *lines) waitAll(t *testing.T, deadline time.Duration, prefix string, parts ...string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		if l.has(prefix, parts...) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, s := range l.all {
		if len(s) > 300 {
			l.all[i] = s[:300] + "…"
		}
	}
	t.Fatalf("no line %q… with %q in %s:\n%s", prefix, parts, deadline, strings.Join(l.all, "\n"))
}

// has reports whether a line starts with prefix and holds each of parts.
func (l *lines) has(prefix string, parts ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.all {
		if strings.HasPrefix(s, prefix) && !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(s, p) }) {
			return true
		}
	}
	return false
}

func (l *lines) find(want string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.all {
		if strings.Contains(s, want) {
			return s, true
		}
	}
	return "", false
}

// startApp runs mcplens app CONFIG TOOL --no-open as claude-desktop with
// more args, and returns it with the URL it printed and what it writes.
func startApp(t *testing.T, config, tool string, more ...string) (cmd *exec.Cmd, url string, out, errs *lines) {
	t.Helper()
	cmd = exec.Command(build(t, ".."), append([]string{"app", config, tool, "--no-open", "--client", "claude-desktop", "--lifetime", "5m"}, more...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	out, errs = &lines{}, &lines{}
	go out.read(stdout)
	go errs.read(stderr)
	return cmd, out.wait(t, "http://127.0.0.1:", 60*time.Second), out, errs
}

// hits is a loopback HTTP server that counts its requests: a "domain" for
// the app's CSP.
func hits(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestAppHostedInChromium: mcplens app hosts the app server's app in a real
// headless Chromium. The app's initialize and its tools/call are frames,
// the tool's result reaches the app, the app-only tool is relayed and the
// model-only one refused, a fetch to the origin its CSP declares goes
// through and one to another loopback port is blocked (that server never
// hears it), and its link and message requests are refused and shown.
func TestAppHostedInChromium(t *testing.T) {
	allowed, allowedHits := hits(t)
	other, otherHits := hits(t)
	path := appsConfig(t, "-allow", allowed.URL, "-probe", allowed.URL+"/in,"+other.URL+"/out")
	cmd, url, out, errs := startApp(t, path, "show_board", "--args", `{"who":"tester"}`)

	// The host page and the app, as any client sees them.
	resp, err := http.Get(url + "app")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"connect-src " + allowed.URL + ";", "sandbox allow-scripts allow-forms", "default-src 'none'", "frame-ancestors 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the app's CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, other.URL) {
		t.Errorf("the app's CSP %q names an origin it never declared", csp)
	}
	if r, err := http.Get(strings.TrimSuffix(url, "/")[:strings.LastIndex(strings.TrimSuffix(url, "/"), "/")] + "/guess/"); err != nil || r.StatusCode != http.StatusNotFound {
		t.Errorf("a page without the token: %v %v, want 404", r, err)
	}
	forged, _ := http.NewRequest(http.MethodPost, url+"rpc", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	forged.Header.Set("Content-Type", "application/json")
	forged.Header.Set("Origin", "null") // the sandboxed app's own origin
	if r, err := http.DefaultClient.Do(forged); err != nil || r.StatusCode != http.StatusForbidden {
		t.Errorf("a relay request from another origin: %v %v, want 403", r, err)
	}

	ctx := headless.New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	out.wait(t, `"heard":"done"`, 90*time.Second)

	for _, want := range []string{
		`← board app show_board {"jsonrpc":"2.0","id":1,"method":"ui/initialize"`,
		`→ board app show_board {"id":1,"jsonrpc":"2.0","result":{"hostCapabilities"`,
		`"heard":"tool-input","arguments":{"who":"tester"}`,
		`"heard":"tool-result","text":"board for tester"`,
		`"method":"tools/call","params":{"name":"board_state","arguments":{}}}`,
		`"heard":"board_state","text":"state from the server"`,
		`"heard":"model_only","text":"","error":"tool \"model_only\" is not visible to apps (visibility [\"model\"])"`,
		`"url":"` + allowed.URL + `/in","outcome":"fetched"`,
		`"url":"` + other.URL + `/out","outcome":"blocked"`,
		`"heard":"open-link","error":"refused: this host opens no links"`,
		`"heard":"bad_args","error":"the arguments break the input schema of \"board_state\"; nothing was sent: /level: got string, want number","code":-32602`,
		`"heard":"message","error":"refused: this host has no model to send a message to"`,
	} {
		if _, ok := out.find(want); !ok {
			t.Errorf("no frame with %s", want)
		}
	}
	if !out.has(`← board app show_board {"jsonrpc":"2.0","id":`, `"method":"tools/call","params":{"name":"board_state"`) {
		t.Error("the app's tools/call is no frame of the app")
	}
	if !out.has(`→ board {"jsonrpc":"2.0","id":`, `"method":"tools/call"`, `"name":"board_state"`) {
		t.Error("the relayed tools/call is no frame of the server")
	}
	out.mu.Lock()
	relayed := 0
	for _, s := range out.all {
		if strings.HasPrefix(s, `→ board {"jsonrpc":"2.0","id":`) && strings.Contains(s, `"name":"board_state"`) {
			relayed++
		}
	}
	out.mu.Unlock()
	if relayed != 1 {
		t.Errorf("the server was sent board_state %d times, want once: the call with arguments breaking its schema is never sent", relayed)
	}
	if allowedHits.Load() == 0 || otherHits.Load() != 0 {
		t.Errorf("the allowed origin heard %d requests, the other %d: want some and none", allowedHits.Load(), otherHits.Load())
	}
	errs.wait(t, `asks to open "https://example.com/board": refused`, 10*time.Second)
	errs.wait(t, "asks to post a message to the conversation: refused", 10*time.Second)
	errs.wait(t, "the app asks for camera: not granted", 10*time.Second)
	// The browser's report of the blocked fetch: a frame of the app's, and shown.
	out.waitAll(t, 30*time.Second, `← board app show_board {`, `"blocked-uri":"`+other.URL, `[blocked by the app's CSP: connect-src `+other.URL)
	errs.wait(t, "blocked by the app's CSP: connect-src "+other.URL, 10*time.Second)

	_ = syscall.Kill(cmd.Process.Pid, syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcplens app after an interrupt: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("mcplens app did not end on an interrupt")
	}
}
