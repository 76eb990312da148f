package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Options say which existing file Write may replace and how to create one.
type Options struct {
	// Mine reports whether the content of the regular file already at the
	// path was written by mcplens (a report, a lock), which Write then
	// replaces. nil means no file is.
	Mine func(content []byte) bool
	// Force replaces a regular file that is not Mine, and a symbolic link
	// (the link, never its target). Nothing replaces a directory, a device
	// or a pipe.
	Force bool
	// Perm is the mode of a new file. A regular file replaced keeps its
	// own.
	Perm fs.FileMode
	// Like, when set, is the file whose owner and group the file written
	// gets, when the process may give them (a copy of a user's file
	// written by root stays the user's).
	Like fs.FileInfo
}

// A RefusedError says why Write left the file at Path as it was.
type RefusedError struct {
	Path string
	// Reason is "is a symbolic link", "is not a regular file" or "was not
	// written by mcplens".
	Reason string
	// Forcible reports whether Options.Force would have replaced it.
	Forcible bool
}

func (e *RefusedError) Error() string { return e.Path + " " + e.Reason }

// Write replaces the file at path with data: through a temporary file in
// the same directory, synced and renamed over path. The file at path, if
// any, must be a regular file that opts.Mine recognises, or opts.Force must
// be set and it a regular file or a symbolic link; otherwise Write returns
// a *RefusedError and writes nothing.
func Write(path string, data []byte, opts Options) error {
	perm := opts.Perm
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		if !opts.Force {
			return &RefusedError{Path: path, Reason: "is a symbolic link", Forcible: true}
		}
	case !fi.Mode().IsRegular():
		return &RefusedError{Path: path, Reason: "is not a regular file"}
	default:
		perm = fi.Mode().Perm()
		if !opts.Force {
			mine, err := isMine(path, fi, opts.Mine)
			if err != nil {
				return err
			}
			if !mine {
				return &RefusedError{Path: path, Reason: "was not written by mcplens", Forcible: true}
			}
		}
	}
	var o *owner
	if opts.Like != nil {
		if uid, gid, ok := Owner(opts.Like); ok {
			o = &owner{uid, gid}
		}
	}
	err = replaceAs(path, data, perm, o)
	if errors.Is(err, errOwner) { // not permitted: the file is the writer's
		err = replaceAs(path, data, perm, nil)
	}
	return err
}

// isMine reads the regular file at path, which Lstat described as fi, and
// asks mine about it. The file opened must be the one described: a path
// swapped for a link in between is not read through.
func isMine(path string, fi fs.FileInfo, mine func([]byte) bool) (bool, error) {
	if mine == nil {
		return false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if got, err := f.Stat(); err != nil || !os.SameFile(fi, got) {
		return false, nil
	}
	content, err := io.ReadAll(f)
	if err != nil {
		return false, err
	}
	return mine(content), nil
}

// replaceAs writes data to a new file beside path, gives it owner o (nil:
// the writer's) and mode, and renames it over path.
func replaceAs(path string, data []byte, mode fs.FileMode, o *owner) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is none
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := o.chown(tmp); err != nil { // before the mode: a chown clears set-id bits
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}
