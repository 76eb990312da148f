package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// noSecrets fails t for each secret a written file holds, and for each
// masked form it lacks (proof that the secret reached the file to be
// masked).
func noSecrets(t *testing.T, what, data string, secrets, want []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(data, s) {
			t.Errorf("%s holds the secret %q:\n%s", what, s, data)
		}
	}
	for _, w := range want {
		if !strings.Contains(data, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, data)
		}
	}
}

// tapHAR runs `mcplens tap har` on a recording, as a process.
func tapHAR(t *testing.T, lens, record string) string {
	t.Helper()
	out, err := exec.Command(lens, "tap", "har", record).Output()
	if err != nil {
		t.Fatalf("tap har: %v", err)
	}
	return string(out)
}

// TestTapMasksConfigSecrets: a client starts the tap as a config installed
// by `tap install` would (the real mcplens binary, with the config's env),
// around a server that dumps its environment and command line in a result
// and on stderr. Neither the recording nor `tap har` holds a secret of the
// config: env values named secret (short or long), a webhook URL.
func TestTapMasksConfigSecrets(t *testing.T) {
	lens, server := build(t, ".."), build(t, "../testdata/servers/hostile")
	record := filepath.Join(t.TempDir(), "leaky.jsonl")
	cfg := writeConfig(t, fmt.Sprintf(`"leaky": {"command": %q,
		"args": ["tap", "--name", "leaky", "--record", %q, "--feed=false", "--", %q, "-mode", "leak"],
		"env": {"PASSWORD": "hunter2", "DB_PASS": "opensesame99", "NOTIFY": "https://hooks.slack.com/services/T000/B000/XXXX",
			"KEYBOARD_LAYOUT": "dvorak-intl"}}`, lens, record, server))
	code, out, errb := runCalled(t, "", cfg, "echo", "--timeout", "30s")
	if code != exitOK {
		t.Fatalf("call: exit %d\n%s%s", code, out, errb)
	}
	secrets := []string{"hunter2", "opensesame99", "T000/B000/XXXX"}
	noSecrets(t, "call's output", out+errb, secrets, []string{"PASSWORD=****"})
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`PASSWORD=****`, `DB_PASS=****`, `NOTIFY=****`, `KEYBOARD_LAYOUT=dvorak-intl`, `"dir":"stderr"`}
	noSecrets(t, "the recording", string(rec), secrets, want)
	noSecrets(t, "tap har", tapHAR(t, lens, record), secrets, want[:4])
}

// TestTapHTTPMasksHeaders: a client whose config declares headers
// (Authorization, Cookie, X-Custom-Creds) calls through an HTTP tap a
// server that echoes them in a tool result. The recording and `tap har`
// hold none of them: not in the request's headers, not in the echo.
func TestTapHTTPMasksHeaders(t *testing.T) {
	mcpSrv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(true))
	mcpSrv.AddTool(mcp.NewTool("whoami"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	handler := server.NewStreamableHTTPServer(mcpSrv)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			id := regexp.MustCompile(`"id":\s*([0-9]+)`).FindSubmatch(body)
			w.Header().Set("Content-Type", "application/json")
			echo := fmt.Sprintf("auth %s cookie %s creds %s", r.Header.Get("Authorization"), r.Header.Get("Cookie"), r.Header.Get("X-Custom-Creds"))
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%q}]}}`, id[1], echo)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler.ServeHTTP(w, r)
	}))
	defer upstream.Close()

	record := filepath.Join(t.TempDir(), "remote.jsonl")
	opts, code, ok := parseTap([]string{"--listen", "127.0.0.1:0", "--upstream", upstream.URL + "/mcp",
		"--name", "remote", "--record", record, "--feed=false"}, io.Discard)
	if !ok {
		t.Fatalf("parseTap: %d", code)
	}
	var stderr tapBuffer
	sigs := make(chan os.Signal, 1)
	done := make(chan int, 1)
	go func() { done <- tapHTTP(opts, &stderr, sigs) }()
	var addr string
	re := regexp.MustCompile(`listening on (http://\S+),`)
	for deadline := time.Now().Add(20 * time.Second); addr == "" && time.Now().Before(deadline); {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if addr == "" {
		t.Fatalf("no address in %q", stderr.String())
	}
	cfg := writeConfig(t, fmt.Sprintf(`"remote": {"url": %q, "headers": {"Authorization": "Bearer b3arer-t0ken-42",
		"Cookie": "session=c00kie-value-77", "X-Custom-Creds": "custom-creds-31337"}}`, addr+"/mcp"))
	code, out, errb := runCalled(t, "", cfg, "whoami", "--config-format", "cursor", "--timeout", "30s")
	sigs <- syscall.SIGTERM
	if c := <-done; c != 0 {
		t.Errorf("tap status %d, stderr %q", c, stderr.String())
	}
	if code != exitOK {
		t.Fatalf("call: exit %d\n%s%s", code, out, errb)
	}
	secrets := []string{"b3arer-t0ken-42", "c00kie-value-77", "custom-creds-31337"}
	noSecrets(t, "call's output", out+errb, secrets, []string{"auth **** cookie **** creds ****"})
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`auth **** cookie **** creds ****`, `"X-Custom-Creds":["****"]`, `"Authorization":["****"]`}
	noSecrets(t, "the recording", string(rec), secrets, want)
	noSecrets(t, "tap har", tapHAR(t, build(t, ".."), record), secrets, []string{`auth **** cookie **** creds ****`, `"value": "****"`})
}
