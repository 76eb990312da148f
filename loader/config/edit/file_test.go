//go:build unix

package edit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcplens/mcplens/internal/safefile"
)

const oneServer = `{"mcpServers": {"a": {"command": "npx", "args": []}}}`

// install taps the config at path as the command does: backup, then
// write.
func install(t *testing.T, path string) []byte {
	t.Helper()
	f, doc := readDoc(t, path)
	out, _, err := doc.Tap(testTap)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Backup(); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func uninstall(t *testing.T, path string) {
	t.Helper()
	f, doc := readDoc(t, path)
	out, _, err := doc.Untap()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(out); err != nil {
		t.Fatal(err)
	}
}

func stat(t *testing.T, path string) (fs.FileMode, uint32, uint32, uint64) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return fi.Mode(), st.Uid, st.Gid, st.Ino
}

// TestOwnerKept wants a user's 0600 config to stay the user's, mode and
// all, through install and uninstall run by root (the test gives the file
// to uid 65534 when it runs as root; otherwise the file is the test's own
// and must stay so), and the backup to be the user's too.
func TestOwnerKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, []byte(oneServer), 0o600); err != nil {
		t.Fatal(err)
	}
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	if os.Geteuid() == 0 {
		uid, gid = 65534, 65534
		if err := os.Chown(path, int(uid), int(gid)); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when, p string, wantMode fs.FileMode) {
		mode, u, g, _ := stat(t, p)
		if mode != wantMode || u != uid || g != gid {
			t.Errorf("%s: %s is %v %d:%d, want %v %d:%d", when, p, mode, u, g, wantMode, uid, gid)
		}
	}
	install(t, path)
	check("after install", path, 0o600)
	f, _ := readDoc(t, path)
	taps := filepath.Join(filepath.Dir(path), "state", "mcplens", "taps")
	if err := f.MkdirAll(taps); err != nil {
		t.Fatal(err)
	}
	check("the record folder", taps, fs.ModeDir|0o700)
	check("the record folder's parent", filepath.Dir(taps), fs.ModeDir|0o700)
	check("after install", path+BackupSuffix, 0o600)
	uninstall(t, path)
	check("after uninstall", path, 0o600)
	if got, _ := os.ReadFile(path); string(got) != oneServer {
		t.Errorf("uninstall left %s", got)
	}
}

// TestHardLinkEditedInPlace wants a config with two names edited in its
// inode: both names see the install and the uninstall.
func TestHardLinkEditedInPlace(t *testing.T) {
	dir := t.TempDir()
	path, other := filepath.Join(dir, ".mcp.json"), filepath.Join(dir, "linked.json")
	if err := os.WriteFile(path, []byte(oneServer), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, other); err != nil {
		t.Fatal(err)
	}
	_, _, _, ino := stat(t, path)
	tapped := install(t, path)
	if got, _ := os.ReadFile(other); string(got) != string(tapped) {
		t.Errorf("the other name holds %s, want the tapped bytes", got)
	}
	if mode, _, _, now := stat(t, path); now != ino || mode != 0o640 {
		t.Errorf("install made inode %d mode %v of inode %d mode 0640", now, mode, ino)
	}
	uninstall(t, path)
	if got, _ := os.ReadFile(other); string(got) != oneServer {
		t.Errorf("after uninstall the other name holds %s", got)
	}
}

// TestRefusals wants a symbolic link, a FIFO, a file changed between read
// and write, and a config over the size bound refused, and each left as
// it was.
func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	os.WriteFile(target, []byte(oneServer), 0o644)
	link := filepath.Join(dir, ".mcp.json")
	os.Symlink(target, link)
	if _, err := Read(link); err == nil || !strings.Contains(err.Error(), "symbolic link (to "+target+")") {
		t.Errorf("Read(symlink) = %v", err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	syscall.Mkfifo(fifo, 0o600)
	if _, err := Read(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read(fifo) = %v", err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, 4<<20+1), 0o644)
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "config limit") {
		t.Errorf("Read(5 MiB) = %v", err)
	}

	path := filepath.Join(dir, "claude_desktop_config.json")
	os.WriteFile(path, []byte(oneServer), 0o644)
	f, doc := readDoc(t, path)
	out, _, _ := doc.Tap(testTap)
	edited := strings.Replace(oneServer, "npx", "npm", 1) // the client saved meanwhile
	os.WriteFile(path, []byte(edited+"\n"), 0o644)
	if err := f.Write(out); err == nil || !strings.Contains(err.Error(), "changed since it was read") {
		t.Errorf("Write after a change = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != edited+"\n" {
		t.Errorf("the changed file became %s", got)
	}
	var refused *safefile.RefusedError
	if err := safefile.Rewrite(link, nil, nil); !errors.As(err, &refused) {
		t.Errorf("Rewrite(symlink) = %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != oneServer {
		t.Errorf("the link's target became %s", got)
	}
}
