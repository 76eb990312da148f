package capture

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/bounded"
)

// TestReadBoundsCalls reads a recording of more calls than Read keeps,
// the last with arguments of 1 MiB: the oldest are let go and counted,
// the newest kept, and a call keeps the start of its arguments only.
func TestReadBoundsCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, testHeader)
	n := MaxReadCalls + 10
	for id := 1; id < n; id++ {
		fmt.Fprintln(w, testRequest(id))
	}
	big := strings.Repeat("é", 1<<19) // 1 MiB, two bytes a character
	fmt.Fprintf(w, `{"t":"2026-12-01T10:00:01Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x","arguments":{"q":"%s"}}}}`+"\n", n, big)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c, err := Read(ReadOptions{}, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Calls)+c.LetGo != n || len(c.Calls) > MaxReadCalls || c.LetGo == 0 {
		t.Errorf("Read kept %d calls and let %d go, want at most %d kept of %d", len(c.Calls), c.LetGo, MaxReadCalls, n)
	}
	last := c.Calls[len(c.Calls)-1]
	if args := string(last.Args); len(args) > maxArgsKept || !strings.HasPrefix(args, `{"q":"éé`) || strings.ToValidUTF8(args, "?") != args {
		t.Errorf("the last call keeps %d bytes of its arguments (%.20q), want at most %d, whole characters", len(args), args, maxArgsKept)
	}
}

// TestReadBoundsServers reads a recording of one server more than Read
// reads: Read and WriteHAR refuse it, saying why, rather than hold them.
func TestReadBoundsServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range MaxReadServers + 1 {
		fmt.Fprintf(w, `{"format":"mcplens-tap","version":1,"server":"s%d","t":"2026-12-01T10:00:00Z","command":["srv"]}`+"\n", i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	want := "the recordings hold over 50000 servers, more than mcplens reads"
	if _, err := Read(ReadOptions{}, path); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Read = %v, want %q", err, want)
	}
	if _, err := WriteHAR(io.Discard, bounded.Lines{}, path); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("WriteHAR = %v, want %q", err, want)
	}
}
