package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Rewrite replaces the content of the regular file at path, which was read
// as read (the Stat of the file the content came from), keeping what the
// file is: its mode, its owner and group (a user's file rewritten by root
// stays the user's), and its other names. A file with one name is
// replaced as Write replaces one, through a temporary file given the
// owner, group and mode before the rename; a file with more hard links, or
// one whose owner cannot be given to a new file, is written in place, so
// that every name and the inode's owner see the new bytes (not atomic: a
// reader may see a partial file while it is written, and a caller keeps a
// backup first).
//
// Rewrite refuses a symbolic link (replacing it would cut it from its
// target; writing through it would edit a file the path does not name)
// and anything but a regular file, with a *RefusedError, and a file that
// changed since it was read (another inode, size or modification time).
//
// On Windows every file is written in place: there is no owner to give a
// new file, and writing in place keeps the file's ACL and hard links.
func Rewrite(path string, data []byte, read fs.FileInfo) error {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return &RefusedError{Path: path, Reason: "is a symbolic link"}
	case !fi.Mode().IsRegular():
		return &RefusedError{Path: path, Reason: "is not a regular file"}
	case !os.SameFile(fi, read) || fi.Size() != read.Size() || !fi.ModTime().Equal(read.ModTime()):
		return fmt.Errorf("%s changed since it was read; nothing written", path)
	}
	o, ok := soleOwner(fi)
	if !ok { // more names than one, or Windows
		return inPlace(path, data, fi)
	}
	err = replaceAs(path, data, fi.Mode(), o)
	if errors.Is(err, errOwner) {
		return inPlace(path, data, fi)
	}
	return err
}

// An owner is a file's user and group.
type owner struct{ uid, gid int }

// errOwner says that a temporary file could not be given an owner.
var errOwner = errors.New("cannot give the file its owner")

// chown gives the new file f its owner o, when it has another.
func (o *owner) chown(f *os.File) error {
	if o == nil {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if uid, gid, ok := Owner(fi); ok && uid == o.uid && gid == o.gid {
		return nil
	}
	if err := f.Chown(o.uid, o.gid); err != nil {
		return fmt.Errorf("%w %d:%d: %w", errOwner, o.uid, o.gid, err)
	}
	return nil
}

// inPlace writes data over the file at path, which must still be the one
// fi describes (opened without following a link).
func inPlace(path string, data []byte, fi fs.FileInfo) error {
	f, err := os.OpenFile(path, os.O_WRONLY|NoFollow|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	got, err := f.Stat()
	if err != nil || !os.SameFile(fi, got) {
		f.Close()
		return fmt.Errorf("%s changed since it was read; nothing written", path)
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		f.Close()
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
