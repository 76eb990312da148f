//go:build unix

package bounded_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/mcplens/mcplens/internal/bounded"
)

// TestNotRegular gives every reader a device, a FIFO nobody writes to, a
// link to that FIFO, a directory and a socket: each is refused with what
// it is, without blocking.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, kind string }{
		{"device", "/dev/zero", "a character device"},
		{"fifo", fifo, "a named pipe (FIFO)"},
		{"link to a fifo", link, "a named pipe (FIFO)"},
		{"directory", dir, "a directory"},
		{"socket", sock, "a socket"},
	}
	for _, tt := range tests {
		readers := map[string]func() error{
			"ReadFile": func() error { _, err := bounded.ReadFile(tt.path, 1<<20, "config"); return err },
			"Lines.Each": func() error {
				_, err := bounded.Lines{}.Each(tt.path, func([]byte) error { return nil })
				return err
			},
		}
		for rname, read := range readers {
			var err error
			within(t, rname+" of "+tt.name, func() { err = read() })
			var nr *bounded.NotRegularError
			want := tt.path + " is " + tt.kind + ", not a regular file"
			if !errors.As(err, &nr) || err.Error() != want {
				t.Errorf("%s(%s) = %v, want %q", rname, tt.name, err, want)
			}
		}
	}
}
