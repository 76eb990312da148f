package bounded_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/bounded"
)

// within runs f in a goroutine and fails the test if it has not returned
// within a minute: a bound against a hang, never a timing assertion.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s still blocked after a minute", what)
	}
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := write(t, dir, "small.json", `{"a":1}`)
	data, err := bounded.ReadFile(small, 7, "config")
	if err != nil || string(data) != `{"a":1}` {
		t.Errorf("ReadFile(small, 7) = %q, %v; want the file", data, err)
	}
	_, err = bounded.ReadFile(small, 6, "config")
	want := small + " is over the 6B config limit; raise it with --limit config=SIZE or MCPLENS_LIMIT_CONFIG"
	if !errors.Is(err, bounded.ErrLimit) || err.Error() != want {
		t.Errorf("ReadFile(small, 6) = %v, want %q", err, want)
	}
	// A sparse 5 GiB file is refused from its size, unread.
	huge := filepath.Join(dir, "huge")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(5 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := bounded.ReadFile(huge, 4<<20, "document"); !errors.Is(err, bounded.ErrLimit) || !strings.Contains(err.Error(), "over the 4MiB document limit") {
		t.Errorf("ReadFile(5 GiB) = %v, want over the 4MiB document limit", err)
	}
	if _, err := bounded.ReadFile(filepath.Join(dir, "missing"), 1, "config"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want not exist", err)
	}
}

// each reads path with l, returning the lines f saw.
func each(t *testing.T, l bounded.Lines, path string) ([]string, bounded.Count, error) {
	t.Helper()
	var got []string
	n, err := l.Each(path, func(b []byte) error { got = append(got, string(b)); return nil })
	return got, n, err
}

func TestLines(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 200<<10) // longer than the reader's buffer
	tests := []struct {
		name    string
		content string
		line    int64
		want    []string
		long    int
		first   int
	}{
		{"plain", "a\nb\n", 0, []string{"a", "b"}, 0, 0},
		{"no last newline, CRLF, blanks", "a\r\n\n\nb", 0, []string{"a", "b"}, 0, 0},
		{"a line at the cap", "abcd\nef\n", 4, []string{"abcd", "ef"}, 0, 0},
		{"a short line over the cap", "abcde\nef\n", 4, []string{"ef"}, 1, 1},
		{"long lines over the cap", "a\n" + long + "\nb\n" + long + "\n" + long, 100 << 10, []string{"a", "b"}, 3, 2},
		{"a long line under the cap", "a\n" + long + "\nb", 1 << 20, []string{"a", long, "b"}, 0, 0},
	}
	for _, tt := range tests {
		path := write(t, dir, "f", tt.content)
		got, n, err := each(t, bounded.Lines{Line: tt.line}, path)
		if err != nil || !equal(got, tt.want) || n.Long != tt.long || n.FirstLong != tt.first || n.Lines != len(tt.want) {
			t.Errorf("%s: Each = %d lines %v, %+v, %v; want %d lines, %d long from line %d", tt.name, len(got), short(got), n, err, len(tt.want), tt.long, tt.first)
		}
		if (n.Skipped() == nil) != (tt.long == 0) {
			t.Errorf("%s: Skipped() = %v with %d long lines", tt.name, n.Skipped(), tt.long)
		}
	}
	path := write(t, dir, "rec.jsonl", "a\n"+long+"\nb\n"+long+"\n")
	_, n, _ := each(t, bounded.Lines{Line: 1 << 10}, path)
	want := "line 2 of " + path + " (and 1 more, all skipped) is over the 1KiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"
	if err := n.Skipped(); err == nil || err.Error() != want {
		t.Errorf("Skipped() = %v, want %q", err, want)
	}
}

// TestLinesTotal reads a file over the total cap: the lines before the
// cap are handed on, then the error names the file and the limit. A file
// exactly at the cap is read whole.
func TestLinesTotal(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "big.jsonl", "one\ntwo\nthree\n")
	got, _, err := each(t, bounded.Lines{Total: 8}, path)
	want := path + " is over the 8B file limit; raise it with --limit file=SIZE or MCPLENS_LIMIT_FILE"
	if !errors.Is(err, bounded.ErrLimit) || err.Error() != want || !equal(got, []string{"one", "two"}) {
		t.Errorf("Each over the total = %v, %v; want one, two and %q", got, err, want)
	}
	got, _, err = each(t, bounded.Lines{Total: 14}, path)
	if err != nil || len(got) != 3 {
		t.Errorf("Each at the total = %v, %v; want three lines", got, err)
	}
	// A cut in the middle of a line does not hand its start on.
	got, _, err = each(t, bounded.Lines{Total: 10}, path)
	if !errors.Is(err, bounded.ErrLimit) || !equal(got, []string{"one", "two"}) {
		t.Errorf("Each cut mid-line = %v, %v; want one, two and the limit", got, err)
	}
	stop := errors.New("stop")
	n, err := bounded.Lines{}.Each(path, func([]byte) error { return stop })
	if err != stop || n.Lines != 1 {
		t.Errorf("Each with f failing = %+v, %v; want f's error after one line", n, err)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func short(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if len(s) > 10 {
			s = fmt.Sprintf("%s…(%d bytes)", s[:10], len(s))
		}
		out[i] = s
	}
	return out
}

func ExampleLines() {
	dir, _ := os.MkdirTemp("", "bounded-")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rec.jsonl")
	os.WriteFile(path, []byte("{\"a\":1}\n"+strings.Repeat("x", 100)+"\n{\"b\":2}\n"), 0o600)
	var kept bytes.Buffer
	n, err := bounded.Lines{Line: 64}.Each(path, func(line []byte) error {
		kept.Write(line)
		return nil
	})
	fmt.Println(kept.String(), n.Lines, n.Long, err)
	fmt.Println(strings.ReplaceAll(n.Skipped().Error(), dir, "DIR"))
	// Output:
	// {"a":1}{"b":2} 2 1 <nil>
	// line 2 of DIR/rec.jsonl (skipped) is over the 64B line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE
}
