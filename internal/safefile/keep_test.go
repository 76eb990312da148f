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

func owner(t *testing.T, path string) (uint32, uint32, uint64) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid, st.Ino
}

// TestRewrite: the file keeps its owner (uid 65534 when the test runs as
// root), mode and inode when it has two names; Options.Like gives a new
// file that owner; a link and a file changed since it was read are
// refused.
func TestRewrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	os.WriteFile(path, []byte("old"), 0o604)
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	if os.Geteuid() == 0 {
		uid, gid = 65534, 65534
		os.Chown(path, int(uid), int(gid))
	}
	fi, _ := os.Stat(path)
	if err := safefile.Rewrite(path, []byte("new"), fi); err != nil {
		t.Fatal(err)
	}
	if u, g, _ := owner(t, path); u != uid || g != gid || read(t, path) != "new" {
		t.Errorf("rewritten: %d:%d %q, want %d:%d \"new\"", u, g, read(t, path), uid, gid)
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o604 {
		t.Errorf("mode %v, want 0604", fi.Mode())
	}
	backup := filepath.Join(dir, "backup")
	if err := safefile.Write(backup, []byte("copy"), safefile.Options{Perm: 0o600, Like: fi}); err != nil {
		t.Fatal(err)
	}
	if u, g, _ := owner(t, backup); u != uid || g != gid {
		t.Errorf("Like gave %d:%d, want %d:%d", u, g, uid, gid)
	}

	other := filepath.Join(dir, "other.json")
	os.Link(path, other)
	_, _, ino := owner(t, path)
	fi, _ = os.Stat(path)
	if err := safefile.Rewrite(path, []byte("linked, longer"), fi); err != nil {
		t.Fatal(err)
	}
	if _, _, now := owner(t, path); now != ino || read(t, other) != "linked, longer" {
		t.Errorf("a hard-linked file was split: inode %d (was %d), other name %q", now, ino, read(t, other))
	}
	fi, _ = os.Stat(path)
	if err := safefile.Rewrite(path, []byte("short"), fi); err != nil || read(t, other) != "short" {
		t.Errorf("rewriting shorter in place = %v, %q", err, read(t, other))
	}

	fi, _ = os.Stat(path)
	os.WriteFile(path, []byte("the client's save"), 0o604)
	if err := safefile.Rewrite(path, []byte("mine"), fi); err == nil || !strings.Contains(err.Error(), "changed since it was read") {
		t.Errorf("Rewrite of a changed file = %v", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(path, link)
	var refused *safefile.RefusedError
	if err := safefile.Rewrite(link, []byte("x"), fi); !errors.As(err, &refused) || refused.Reason != "is a symbolic link" {
		t.Errorf("Rewrite(link) = %v", err)
	}
	if read(t, path) != "the client's save" {
		t.Errorf("a refused rewrite wrote %q", read(t, path))
	}
}
