package capture

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
