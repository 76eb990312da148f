package relay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/recording"
	"github.com/mcplens/mcplens/relay"
)

// script is what the tests' client writes: a handshake, a listing, a call,
// a line that is not JSON, and a last line without a newline.
const script = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"relay-test","version":"1.0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"through the relay"}}}
not json at all
{"jsonrpc":"2.0","id":4,"method":"ping"}
{"jsonrpc":"2.0","id":5,`

// run is one run of a server: what it wrote and how it ended.
type run struct {
	stdout, stderr string
	code           int
}

func runDirect(t *testing.T, input string, command ...string) run {
	t.Helper()
	cmd := exec.Command(command[0], command[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(input), &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return run{out.String(), errb.String(), code}
}

func runRelayed(t *testing.T, input string, sink relay.Sink, command ...string) run {
	t.Helper()
	c := relay.NewCopier(relay.CopierOptions{Server: "srv"}, sink)
	var out, errb bytes.Buffer
	s := relay.Stdio{Command: command[0], Args: command[1:], Stdin: strings.NewReader(input),
		Stdout: &out, Stderr: &errb, Copy: c}
	code, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return run{out.String(), errb.String(), code}
}

// checkCopy compares the frames recorded in direction dir with the bytes
// that passed.
func checkCopy(t *testing.T, rs []record, dir, passed string) {
	t.Helper()
	got := joined(rs, dir)
	if strings.HasSuffix(passed, "\n") {
		got += "\n"
	}
	if passed == "" {
		got = ""
	}
	if got != passed {
		t.Errorf("%s frames joined:\n%q\nwant the bytes that passed:\n%q", dir, got, passed)
	}
}

// TestPassthroughHostile runs the hostile server's modes that write junk,
// stray and partial lines directly and through the relay, and wants the
// same bytes, byte for byte, and the same status; the copy holds every
// frame that passed.
func TestPassthroughHostile(t *testing.T) {
	server := hostile.Path(t)
	for _, mode := range []string{"ok", "junk", "stray", "escapes", "exit-list"} {
		t.Run(mode, func(t *testing.T) {
			direct := runDirect(t, script, server, "-mode", mode)
			sink := &memSink{}
			relayed := runRelayed(t, script, sink, server, "-mode", mode)
			if relayed.stdout != direct.stdout {
				t.Errorf("stdout through the relay:\n%q\ndirect:\n%q", relayed.stdout, direct.stdout)
			}
			if relayed.stderr != direct.stderr || relayed.code != direct.code {
				t.Errorf("stderr %q, status %d through the relay; direct %q, %d",
					relayed.stderr, relayed.code, direct.stderr, direct.code)
			}
			rs := sink.records(t)
			checkCopy(t, rs, "s2c", relayed.stdout)
			checkCopy(t, rs, "stderr", relayed.stderr)
			if mode != "exit-list" { // it stops reading midway
				checkCopy(t, rs, "c2s", script)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe to read while the relay writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPassthroughEverything relays the reference TypeScript server, with
// tee on both of its sides: the relay must pass to the server exactly what
// the client wrote, and to the client exactly what the server wrote.
func TestPassthroughEverything(t *testing.T) {
	entry := everythingEntry(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	sink := &memSink{}
	c := relay.NewCopier(relay.CopierOptions{Server: "everything"}, sink)
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr syncBuffer
	sigs := make(chan os.Signal, 1)
	s := relay.Stdio{Command: "sh", Args: []string{"-c", `tee "$0" | node "$1" stdio | tee "$2"`, in, entry, out},
		Stdin: stdinR, Stdout: &stdout, Stderr: &stderr, Copy: c, Signals: sigs}
	done := make(chan int, 1)
	go func() {
		code, err := s.Run()
		if err != nil {
			t.Error(err)
		}
		done <- code
	}()
	input := strings.Join(strings.Split(script, "\n")[:4], "\n") + "\n"
	stdinW.WriteString(input)
	waitFor(t, "the echo's answer", func() bool { return strings.Contains(stdout.String(), `"id":3`) })
	stdinW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		sigs <- syscall.SIGTERM // a server that outlives its stdin
		<-done
	}
	stdinR.Close()
	c.Close()
	wrote, _ := os.ReadFile(out)
	read, _ := os.ReadFile(in)
	if stdout.String() != string(wrote) {
		t.Errorf("the client got %d bytes, the server wrote %d:\n%q\n%q", len(stdout.String()), len(wrote), stdout.String(), wrote)
	}
	if string(read) != input {
		t.Errorf("the server read %q, the client wrote %q", read, input)
	}
	if !strings.Contains(stdout.String(), "through the relay") {
		t.Errorf("stdout %q lacks the echo", stdout.String())
	}
	rs := sink.records(t)
	checkCopy(t, rs, "s2c", stdout.String())
	checkCopy(t, rs, "c2s", input)
}

// startRelay runs a relay of command in-process with pipes for the
// client's side, and returns an mcp-go client on them (not yet started)
// and a function that waits for the relay to end.
func startRelay(t *testing.T, c *relay.Copier, command ...string) (*client.Client, func() int) {
	t.Helper()
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	s := relay.Stdio{Command: command[0], Args: command[1:], Stdin: inR, Stdout: outW, Stderr: errW, Copy: c}
	done := make(chan int, 1)
	go func() {
		code, err := s.Run()
		if err != nil {
			t.Error(err)
		}
		outW.Close()
		errW.Close()
		done <- code
	}()
	cl := client.NewClient(transport.NewIO(outR, inW, errR), client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	return cl, func() int {
		cl.Close()
		code := <-done
		inR.Close()
		return code
	}
}

// TestClientThroughRelay drives the relay with mcp-go's client while one
// feed reader never reads and another is gone: every call succeeds, the
// stuck reader's lines are dropped, and the recording holds the client's
// initialize with its clientInfo.
func TestClientThroughRelay(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "feed.sock")
	header := relay.HeaderLine(relay.Source{Server: "many"}, time.Now())
	feed, err := relay.Serve(sock, header)
	if err != nil {
		t.Fatal(err)
	}
	stuck, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(stuck)
	if err := syscall.Connect(stuck, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	gone, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Connect(gone, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two feed readers", func() bool { return feed.Readers() == 2 })
	syscall.Close(gone)

	sink := &memSink{}
	c := relay.NewCopier(relay.CopierOptions{Server: "many"}, sink, feed)
	cl, wait := startRelay(t, c, hostile.Path(t), "-mode", "many", "-tools", "1000", "-page", "1000")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "relay-e2e", Version: "0.1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	// Some 8 MB through a feed whose reader takes none of it, in frames
	// under the frame cap (a longer one is recorded as its first CutKeep).
	for i := range 40 {
		res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil || len(res.Tools) == 0 {
			t.Fatalf("tools/list %d: %v, %v", i, res, err)
		}
	}
	if code := wait(); code != 0 {
		t.Errorf("relay status %d", code)
	}
	c.Close()
	if feed.Dropped() == 0 {
		t.Error("the stuck reader dropped nothing")
	}
	var clientName string
	for _, r := range sink.records(t) {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				ClientInfo struct{ Name string } `json:"clientInfo"`
			} `json:"params"`
		}
		if r.Dir == "c2s" && json.Unmarshal(r.Frame, &msg) == nil && msg.Method == "initialize" {
			clientName = msg.Params.ClientInfo.Name
		}
	}
	if clientName != "relay-e2e" {
		t.Errorf("recorded initialize's clientInfo.name = %q, want relay-e2e", clientName)
	}
}

// TestExitStatus wants the server's status back: its exit code, 128 plus
// a signal forwarded to it, or an error for a server that cannot start.
func TestExitStatus(t *testing.T) {
	tests := []struct {
		name    string
		command []string
		signal  os.Signal // forwarded once the server runs
		want    int
	}{
		{"exit code", []string{"sh", "-c", "exit 7"}, nil, 7},
		{"terminated", []string{"sleep", "30"}, syscall.SIGTERM, 128 + 15},
		{"hung up", []string{"sleep", "30"}, syscall.SIGHUP, 128 + 1},
	}
	// A test run under nohup ignores SIGHUP, and so would the server it
	// starts (an ignored signal stays ignored across exec): handling it
	// here has the server start with it at its default.
	if signal.Ignored(syscall.SIGHUP) {
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 1)
			if tt.signal != nil {
				sigs <- tt.signal
			}
			s := relay.Stdio{Command: tt.command[0], Args: tt.command[1:], Stdin: strings.NewReader(""),
				Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Signals: sigs}
			got, err := s.Run()
			if err != nil || got != tt.want {
				t.Errorf("Run(%q) = %d, %v; want %d", tt.command, got, err, tt.want)
			}
		})
	}
	s := relay.Stdio{Command: filepath.Join(t.TempDir(), "none"), Stdin: strings.NewReader(""),
		Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	if _, err := s.Run(); err == nil {
		t.Error("Run of a missing command: want an error")
	}
}

// TestSignalForwarded signals a relay process, which passes the signal on
// to its server and exits with the server's status.
func TestSignalForwarded(t *testing.T) {
	record := filepath.Join(t.TempDir(), "rec.jsonl")
	cmd := relayCommand(t, record, "sh", "-c", "echo started; exec sleep 30")
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the relay's server", func() bool { return strings.Contains(stdout.String(), "started") })
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 128+15 {
		t.Errorf("relay ended with %v (stderr %q); want status 143", err, stderr.String())
	}
	if rs := readRecording(t, record); len(rs) == 0 || rs[0].Format != recording.Format {
		t.Errorf("recording %v: want its header", rs)
	}
}
