//go:build unix

package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcplens/mcplens/internal/safefile"
)

func mine(content []byte) bool { return strings.HasPrefix(string(content), "mine") }

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("someone's"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ours := filepath.Join(dir, "ours")
	if err := os.WriteFile(ours, []byte("mine, old"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		force   bool
		refused string // the RefusedError's reason, "" when written
	}{
		{"new file", filepath.Join(dir, "new"), false, ""},
		{"a file mcplens wrote", ours, false, ""},
		{"a file it did not", target, false, "was not written by mcplens"},
		{"a link", link, false, "is a symbolic link"},
		{"a pipe", fifo, false, "is not a regular file"},
		{"a pipe, forced", fifo, true, "is not a regular file"},
		{"a directory, forced", dir, true, "is not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := safefile.Write(tt.path, []byte("mine, new"), safefile.Options{Mine: mine, Force: tt.force, Perm: 0o644})
			var refused *safefile.RefusedError
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("Write(%s) = %v, want it written", tt.path, err)
			case tt.refused == "":
				if got := read(t, tt.path); got != "mine, new" {
					t.Errorf("after Write the file holds %q", got)
				}
			case !errors.As(err, &refused) || refused.Reason != tt.refused:
				t.Errorf("Write(%s) = %v, want refused: %s", tt.path, err, tt.refused)
			}
		})
	}
	if got := read(t, target); got != "someone's" {
		t.Errorf("a refused write changed the file: %q", got)
	}
	if fi, _ := os.Stat(ours); fi.Mode().Perm() != 0o600 {
		t.Errorf("a replaced file has mode %v, want its own -rw-------", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Join(dir, "new")); fi.Mode().Perm() != 0o644 {
		t.Errorf("a new file has mode %v, want -rw-r--r--", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

// Forced, a link is replaced by the file, and its target left alone.
func TestWriteForcedReplacesTheLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("someone's"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := safefile.Write(link, []byte("mine"), safefile.Options{Force: true, Perm: 0o644}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, target); got != "someone's" {
		t.Errorf("the link's target was written: %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() || read(t, link) != "mine" {
		t.Errorf("the link was not replaced by the file: %v %v", fi, err)
	}
}
