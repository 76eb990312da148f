package browsertest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A Browser is the script $BROWSER names for one test, and the file its
// runs write to.
type Browser struct {
	// Path is the script.
	Path string
	log  string
}

// New writes the script in a folder of t's and sets $BROWSER to it for the
// rest of t (so t may not be parallel).
func New(t testing.TB) *Browser {
	t.Helper()
	dir := t.TempDir()
	b := &Browser{Path: filepath.Join(dir, "browser"), log: filepath.Join(dir, "opened")}
	// One write per run: the count of arguments, then each, NUL-terminated.
	script := "#!/bin/sh\nprintf '%s\\0' \"$#\" \"$@\" >> '" + b.log + "'\n"
	if err := os.WriteFile(b.Path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", b.Path)
	return b
}

// Calls are the argument lists of the runs that finished writing, in
// order.
func (b *Browser) Calls() [][]string {
	data, err := os.ReadFile(b.log)
	if err != nil {
		return nil
	}
	var calls [][]string
	fields := bytes.Split(data, []byte{0})
	for i := 0; i < len(fields); {
		n, err := strconv.Atoi(string(fields[i]))
		if err != nil || i+1+n >= len(fields) { // a run still writing (the last field is what follows the last NUL)
			break
		}
		call := []string{}
		for _, f := range fields[i+1 : i+1+n] {
			call = append(call, string(f))
		}
		calls = append(calls, call)
		i += 1 + n
	}
	return calls
}

// Wait polls until n runs are recorded, and returns them; it fails t when
// they do not come within 10 seconds.
func (b *Browser) Wait(t testing.TB, n int) [][]string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if calls := b.Calls(); len(calls) >= n {
			return calls
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser ran %d times, want %d: %q", len(b.Calls()), n, b.Calls())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
