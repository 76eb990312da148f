package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/recording"
)

func TestTapUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"nothing to run", nil, 2, "want a command"},
		{"upstream without listen", []string{"--upstream", "http://127.0.0.1:1/mcp"}, 2, "needs --listen"},
		{"listen without upstream", []string{"--listen", "127.0.0.1:0", "--", "true"}, 2, "needs --upstream"},
		{"both", []string{"--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "--", "true"}, 2, "not both"},
		{"not a URL", []string{"--listen", "127.0.0.1:0", "--upstream", "ftp://h/x"}, 2, "want an http://"},
		{"help", []string{"-h"}, 0, "usage: mcplens tap"},
		{"a command that does not start", []string{"--feed=false", "--", filepath.Join(t.TempDir(), "none")}, 127, "starting"},
		{"a server's status", []string{"--feed=false", "--", "sh", "-c", "exit 3"}, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runTap(tt.args, nil, strings.NewReader(""), &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("runTap(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}

// tapRecord is one line of a tap's recording, as far as these tests look.
type tapRecord struct {
	Format string          `json:"format"`
	Server string          `json:"server"`
	Dir    string          `json:"dir"`
	Frame  json.RawMessage `json:"frame"`
	Text   string          `json:"text"`
}

func readTapRecording(t *testing.T, path string) []tapRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []tapRecord
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r tapRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("recording line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// TestTapStdio runs the hostile server's junk mode through `mcplens tap`:
// the client gets the server's bytes, the recording (0600) holds the
// frames of both directions under the tap's label, and a feed reader gets
// the same lines live.
func TestTapStdio(t *testing.T) {
	server := build(t, "../testdata/servers/hostile")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	record := filepath.Join(t.TempDir(), "tap.jsonl")
	stdinR, stdinW := io.Pipe()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runTap([]string{"--name", "junky", "--record", record, "--", server, "-mode", "junk"}, nil, stdinR, &stdout, &stderr)
	}()
	dir := filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "mcplens")
	var sock string
	deadline := time.Now().Add(20 * time.Second)
	for sock == "" && time.Now().Before(deadline) {
		if m, _ := filepath.Glob(filepath.Join(dir, "junky.*.sock")); len(m) == 1 {
			sock = m[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if sock == "" {
		t.Fatalf("no feed socket in %s", dir)
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	feed := bufio.NewReader(conn)
	header, err := feed.ReadString('\n')
	if err != nil || !strings.Contains(header, `"server":"junky"`) {
		t.Fatalf("feed header %q, %v", header, err)
	}
	io.WriteString(stdinW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"tap-test"}}}`+"\n")
	for {
		line, err := feed.ReadString('\n')
		if err != nil {
			t.Fatalf("feed: %v", err)
		}
		if strings.Contains(line, `"dir":"c2s"`) && strings.Contains(line, `"tap-test"`) {
			break
		}
	}
	stdinW.Close()
	if code := <-done; code != 0 {
		t.Fatalf("tap status %d, stderr %q", code, stderr.String())
	}
	if fi, err := os.Stat(record); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("recording: %v, %v; want mode 0600", fi, err)
	}
	rs := readTapRecording(t, record)
	if rs[0].Format != recording.Format || rs[0].Server != "junky" {
		t.Errorf("header %+v", rs[0])
	}
	var s2c []string
	for _, r := range rs[1:] {
		if r.Server != "junky" {
			t.Errorf("record %+v: want server junky", r)
		}
		if r.Dir == "s2c" {
			s2c = append(s2c, string(r.Frame)+r.Text)
		}
	}
	if got := strings.Join(s2c, "\n"); got != stdout.String() {
		t.Errorf("s2c frames %q, want the bytes the client got %q", got, stdout.String())
	}
}

// tapBuffer is a buffer safe to read while the tap writes it.
type tapBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *tapBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *tapBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestTapHTTP proxies an HTTP server through `mcplens tap --listen
// --upstream` until a signal stops it.
func TestTapHTTP(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"path":"`+r.URL.Path+`"}}`)
	}))
	defer upstream.Close()
	record := filepath.Join(t.TempDir(), "tap.jsonl")
	opts, code, ok := parseTap([]string{"--listen", "127.0.0.1:0", "--upstream", upstream.URL + "/mcp",
		"--record", record, "--feed=false"}, io.Discard)
	if !ok {
		t.Fatalf("parseTap: %d", code)
	}
	if opts.name != "127.0.0.1" {
		t.Errorf("default name %q, want the upstream's host", opts.name)
	}
	var stderr tapBuffer
	sigs := make(chan os.Signal, 1)
	done := make(chan int, 1)
	go func() { done <- tapHTTP(opts, &stderr, sigs) }()
	var addr string
	re := regexp.MustCompile(`listening on (http://\S+),`)
	deadline := time.Now().Add(20 * time.Second)
	for addr == "" && time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if addr == "" {
		t.Fatalf("no address in %q", stderr.String())
	}
	resp, err := http.Post(addr, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"jsonrpc":"2.0","id":1,"result":{"path":"/mcp"}}`; string(body) != want {
		t.Errorf("through the tap: %s, want %s (a request for / goes to the upstream's path)", body, want)
	}
	sigs <- syscall.SIGTERM
	if code := <-done; code != 0 {
		t.Errorf("tap status %d, stderr %q", code, stderr.String())
	}
	var dirs []string
	for _, r := range readTapRecording(t, record)[1:] {
		dirs = append(dirs, r.Dir)
	}
	if strings.Join(dirs, " ") != "c2s s2c" {
		t.Errorf("recorded directions %q, want c2s s2c", dirs)
	}
}

// TestTapSecretsKeepWorkingDirectories holds that the shell's working
// directories are not taken for secrets (their names contain "pwd"), while
// a password in the environment is.
func TestTapSecretsKeepWorkingDirectories(t *testing.T) {
	got := tapSecrets([]string{"srv"}, []string{"PWD=/home/me/project", "OLDPWD=/home/me", "DB_PASSWORD=hunter2hunter2"})
	if slices.Contains(got, "/home/me/project") || slices.Contains(got, "/home/me") {
		t.Errorf("tapSecrets = %q: the working directories are masked", got)
	}
	if !slices.Contains(got, "hunter2hunter2") {
		t.Errorf("tapSecrets = %q: the password is not masked", got)
	}
}
