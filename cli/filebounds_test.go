//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/peak"
)

// runLens runs the mcplens binary with args, bounded by a minute against a
// hang (never a timing assertion), and returns its exit code, stdout,
// stderr and peak RSS.
func runLens(t *testing.T, lens string, args ...string) (code int, stdout, stderr string, rss int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lens, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	rss, err := peak.Run(cmd)
	if ctx.Err() != nil {
		t.Fatalf("mcplens %s still running after a minute (blocked?)", strings.Join(args, " "))
	}
	return exitCode(err), out.String(), errb.String(), rss
}

// fileBoundsFixture writes what the file-reader tests read: a FIFO nobody
// writes to, a config, and a small recording.
func fileBoundsFixture(t *testing.T) (dir, fifo, cfg, rec string) {
	t.Helper()
	dir = t.TempDir()
	fifo = filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg = filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers":{"alpha":{"command":"true"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	rec = filepath.Join(dir, "alpha.jsonl")
	writeRecording(t, rec, nil)
	return dir, fifo, cfg, rec
}

// writeRecording writes a recording of one server, alpha, that lists one
// tool and answers one call; junk, when set, writes a line after its
// header.
func writeRecording(t *testing.T, path string, junk func(*os.File)) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	b.WriteString(`{"format":"mcplens-tap","version":1,"server":"alpha","t":"2026-12-01T10:00:00Z","command":["alpha"]}` + "\n")
	if junk != nil {
		f.WriteString(b.String())
		b.Reset()
		junk(f)
	}
	for _, l := range []string{
		`{"t":"2026-12-01T10:00:01Z","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"claude-code","version":"2.1.0"},"capabilities":{}}}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"alpha","dir":"s2c","frame":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"alpha","version":"1"}}}}`,
		`{"t":"2026-12-01T10:00:03Z","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}}`,
		`{"t":"2026-12-01T10:00:04Z","server":"alpha","dir":"s2c","frame":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"request","inputSchema":{"type":"object"}}]}}}`,
		`{"t":"2026-12-01T10:00:05Z","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"request","arguments":{"verb":"list"}}}}`,
		`{"t":"2026-12-01T10:00:06Z","server":"alpha","dir":"s2c","frame":{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}}`,
	} {
		b.WriteString(l + "\n")
	}
	if _, err := f.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
}

// longLine writes a line of prefix, then n bytes of c, then suffix and a
// newline, a chunk at a time: the test process never holds it, so that
// the peak RSS the kernel gives for mcplens (which counts the test
// process's own peak before the exec) is mcplens's.
func longLine(prefix string, c byte, n int, suffix string) func(*os.File) {
	return func(f *os.File) {
		f.WriteString(prefix)
		chunk := bytes.Repeat([]byte{c}, 1<<20)
		for ; n > 0; n -= len(chunk) {
			f.Write(chunk[:min(n, len(chunk))])
		}
		f.WriteString(suffix + "\n")
	}
}

// TestFileReadersRefuseSpecialFiles gives every command that reads a file
// /dev/zero and a FIFO nobody writes to: each refuses it at once, saying
// what it is, where before /dev/zero grew mcplens to 1.5 GB and a FIFO
// blocked it forever.
func TestFileReadersRefuseSpecialFiles(t *testing.T) {
	lens := build(t, "..")
	_, fifo, cfg, rec := fileBoundsFixture(t)
	const zero = "/dev/zero"
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"call --replay /dev/zero", []string{"call", "--replay", zero, cfg}, 2, "reading --replay: /dev/zero is a character device, not a regular file"},
		{"call --replay FIFO", []string{"call", "--replay", fifo, cfg}, 2, "reading --replay: " + fifo + " is a named pipe (FIFO), not a regular file"},
		{"tap har FIFO", []string{"tap", "har", fifo}, 1, fifo + " is a named pipe (FIFO), not a regular file"},
		{"tap har /dev/zero", []string{"tap", "har", zero}, 1, "/dev/zero is a character device, not a regular file"},
		{"tap har of a recording then a FIFO", []string{"tap", "har", rec, fifo}, 1, fifo + " is a named pipe (FIFO), not a regular file"},
		{"diff FIFO recording", []string{"diff", fifo, rec}, 2, "reading " + fifo + ": " + fifo + " is a named pipe (FIFO), not a regular file"},
		{"call --args @/dev/zero", []string{"call", cfg, "request", "--args", "@" + zero}, 2, "reading --args: /dev/zero is a character device, not a regular file"},
		{"call --args @FIFO", []string{"call", cfg, "request", "--args", "@" + fifo}, 2, "reading --args: " + fifo + " is a named pipe (FIFO), not a regular file"},
		{"check --lock FIFO", []string{"check", "--lock", fifo, cfg}, 2, "reading lock: " + fifo + " is not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr, rss := runLens(t, lens, tt.args...)
			t.Logf("peak RSS %s", peak.MiB(rss))
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("mcplens %s: exit %d, said %q; want %d and %q", strings.Join(tt.args, " "), code, stderr, tt.code, tt.want)
			}
		})
	}
}

// TestHistoryFIFORefused starts the interface on a terminal with a FIFO as
// --history: mcplens refuses it before any server starts and exits 2,
// where before it blocked forever opening it.
func TestHistoryFIFORefused(t *testing.T) {
	lens := build(t, "..")
	_, fifo, cfg, _ := fileBoundsFixture(t)
	p := openPTY(t)
	cmd := exec.Command(lens, "--history", fifo, cfg)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	_, code := exited(t, cmd, done, time.Now(), time.Minute)
	want := "reading the history: " + fifo + " is a named pipe (FIFO), not a regular file"
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(p.output(), want) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond) // the pty's reader may still be copying the last bytes
	}
	if code != 2 || !strings.Contains(p.output(), want) {
		t.Errorf("mcplens --history FIFO: exit %d, drew %q; want 2 and %q", code, p.output(), want)
	}
}

// TestFileReadersLongLine puts a 17 MiB line, over the 16 MiB line limit,
// in a recording and a --replay file: the recording is read without it,
// the line counted and said on stderr; the --replay file is refused,
// naming the line and the limit. The line is never held whole.
func TestFileReadersLongLine(t *testing.T) {
	lens := build(t, "..")
	dir, _, cfg, _ := fileBoundsFixture(t)
	rec := filepath.Join(dir, "long.jsonl")
	writeRecording(t, rec, longLine(`{"t":"2026-12-01T10:00:00Z","server":"alpha","dir":"s2c","text":"`, 'x', 17<<20, `"}`))
	skipped := "line 2 of " + rec + " (skipped) is over the 16MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"

	code, stdout, stderr, rss := runLens(t, lens, "check", rec, "--fail-on", "never")
	t.Logf("check: peak RSS %s", peak.MiB(rss))
	if code != 0 || !strings.Contains(stderr, skipped) || !strings.Contains(stdout, "alpha request") {
		t.Errorf("check of a recording with a long line: exit %d, stderr %q, stdout %q; want 0, %q and the call", code, stderr, stdout, skipped)
	}
	code, stdout, stderr, rss = runLens(t, lens, "tap", "har", rec)
	t.Logf("tap har: peak RSS %s", peak.MiB(rss))
	var h struct {
		Log struct{ Entries []json.RawMessage }
	}
	if err := json.Unmarshal([]byte(stdout), &h); code != 0 || err != nil || len(h.Log.Entries) != 3 || !strings.Contains(stderr, skipped) {
		t.Errorf("tap har of a recording with a long line: exit %d, %d entries (%v), stderr %q; want 0, 3 and %q", code, len(h.Log.Entries), err, stderr, skipped)
	}

	replay := filepath.Join(dir, "replay.jsonl")
	f, err := os.Create(replay)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"server":"alpha","tool":"request","arguments":{}}` + "\n")
	longLine(`{"server":"alpha","tool":"`, 'y', 17<<20, `"}`)(f)
	f.Close()
	code, _, stderr, rss = runLens(t, lens, "call", "--replay", replay, cfg)
	t.Logf("call --replay: peak RSS %s", peak.MiB(rss))
	want := "--replay: line 2 of " + replay + " (skipped) is over the 16MiB line limit"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("call --replay with a long line: exit %d, said %q; want 2 and %q", code, stderr, want)
	}
}

// TestFileReadersTotal reads files over their total: each is refused
// naming the file and the limit, and tap har still closes its log.
func TestFileReadersTotal(t *testing.T) {
	lens := build(t, "..")
	dir, _, cfg, rec := fileBoundsFixture(t)
	over := rec + " is over the 1KiB file limit; raise it with --limit file=SIZE or MCPLENS_LIMIT_FILE"

	code, stdout, stderr, _ := runLens(t, lens, "tap", "har", "--limit", "file=1KiB", rec)
	var h struct {
		Log struct{ Entries []json.RawMessage }
	}
	if err := json.Unmarshal([]byte(stdout), &h); code != 1 || err != nil || !strings.Contains(stderr, over) {
		t.Errorf("tap har over the file limit: exit %d, log %v, stderr %q; want 1, a closed log and %q", code, err, stderr, over)
	}
	code, _, stderr, _ = runLens(t, lens, "check", rec, "--limit", "file=1KiB")
	if code != 2 || !strings.Contains(stderr, over) {
		t.Errorf("check over the file limit: exit %d, stderr %q; want 2 and %q", code, stderr, over)
	}
	cmd := exec.Command(lens, "check", rec)
	cmd.Env = append(os.Environ(), "MCPLENS_LIMIT_FILE=1KiB")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), over) {
		t.Errorf("check with MCPLENS_LIMIT_FILE=1KiB said %q, want %q", out, over)
	}

	replay := filepath.Join(dir, "replay.jsonl")
	if err := os.WriteFile(replay, []byte(strings.Repeat(`{"server":"alpha","tool":"request","arguments":{}}`+"\n", 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr, _ = runLens(t, lens, "call", "--replay", replay, "--limit", "document=100B", cfg)
	want := replay + " is over the 100B document limit; raise it with --limit document=SIZE or MCPLENS_LIMIT_DOCUMENT"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("call --replay over the document limit: exit %d, said %q; want 2 and %q", code, stderr, want)
	}
}
