package edit

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/loader/config"
)

// BackupSuffix names the copy of a config's bytes kept beside it before
// an install.
const BackupSuffix = ".mcplens-tap.bak"

// A File is a config file read for editing: its bytes and what the file
// was when they were read.
type File struct {
	Path string
	Data []byte
	info fs.FileInfo
}

// Read reads the config file at path for editing: a regular file of at
// most config.DefaultMaxSize bytes, opened without blocking (a FIFO is
// refused, not waited on). A symbolic link is refused, naming its target:
// writing would replace the link (the safe writer never writes through
// one), which would cut it from the file the client reads.
func Read(path string) (*File, error) {
	lfi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if lfi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return nil, fmt.Errorf("%s is a symbolic link (to %s): give the file it names", path, target)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|safefile.NoFollow|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case !os.SameFile(lfi, fi):
		return nil, fmt.Errorf("%s changed while it was opened", path)
	case fi.Size() > config.DefaultMaxSize:
		return nil, &config.SizeError{Max: config.DefaultMaxSize, What: path}
	}
	data, err := io.ReadAll(io.LimitReader(f, config.DefaultMaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > config.DefaultMaxSize {
		return nil, &config.SizeError{Max: config.DefaultMaxSize, What: path}
	}
	return &File{Path: path, Data: data, info: fi}, nil
}

// Write replaces the file's bytes with data, keeping its mode, owner and
// group, and editing a file with several hard links in place so that
// every name sees the edit (safefile.Rewrite). It refuses when the file
// changed since it was read: another inode, size, modification time or
// content (a client that saved its config meanwhile, within the clock's
// granularity, is caught by the content).
func (f *File) Write(data []byte) error {
	now, err := Read(f.Path)
	if err != nil {
		return err
	}
	if !bytes.Equal(now.Data, f.Data) {
		return fmt.Errorf("%s changed since it was read; nothing written", f.Path)
	}
	return safefile.Rewrite(f.Path, data, f.info)
}

// Backup keeps the bytes read in BackupPath, replacing any backup there:
// a backup holds the bytes from just before the latest install. It is
// created 0600 and given the config's owner and group when the process
// may (root editing a user's config).
func (f *File) Backup() error {
	return safefile.Write(f.BackupPath(), f.Data, safefile.Options{Force: true, Perm: 0o600, Like: f.info})
}

// MkdirAll creates dir and its missing parents, 0700, each given the
// config's owner and group when the process may (root installing into a
// user's config: the folder the user's client records to stays the
// user's, or its taps could not write there).
func (f *File) MkdirAll(dir string) error {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := f.MkdirAll(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return nil
		}
		return err
	}
	if uid, gid, ok := safefile.Owner(f.info); ok && os.Geteuid() == 0 {
		return os.Lchown(dir, uid, gid)
	}
	return nil
}

// BackupPath is where Backup keeps the bytes.
func (f *File) BackupPath() string { return f.Path + BackupSuffix }
