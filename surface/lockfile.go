package surface

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/model"
)

// ReadLock reads the lock file at path ("" for none). A file that does not
// exist yet is an empty lock when it is about to be written. A lock is read
// only from a regular file (a link to one is followed), but a link is not
// something --update-lock replaces without force. With updating and force,
// a regular file that is not a lock is replaced by an empty one; a pipe or
// a device never is. The lock is read whole, at most max bytes.
func ReadLock(path string, updating, force bool, max int64) (*model.Lock, error) {
	if path == "" {
		return nil, nil
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && updating:
		return model.NewLock(), nil
	case err != nil:
		return nil, fmt.Errorf("reading lock: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0 && updating && !force:
		return nil, fmt.Errorf("lock %s is a symbolic link; --update-lock replaces it only with --force (the link, never its target)", path)
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reading lock: %s is not a regular file", path)
	}
	l, err := parseLockFile(path, max)
	if err != nil && updating && force {
		return model.NewLock(), nil
	}
	if err != nil && updating {
		return nil, fmt.Errorf("%w; --update-lock --force replaces it", err)
	}
	return l, err
}

// parseLockFile reads and parses the lock at path, following a link, from
// a regular file of at most max bytes only (bounded.ReadFile: opening a
// pipe would wait for a writer, and a device never ends).
func parseLockFile(path string, max int64) (*model.Lock, error) {
	data, err := bounded.ReadFile(path, max, "document")
	if err != nil {
		return nil, fmt.Errorf("reading lock: %w", err)
	}
	l, err := model.ParseLock(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// WriteLock replaces the lock file at path with l (safefile.Write): a
// reader never sees half a lock, a link at path is not followed, a lock
// keeps its file mode, and a file that is not an mcplens lock is replaced
// only with force.
func WriteLock(path string, l *model.Lock, force bool) error {
	data, err := l.Marshal()
	if err != nil {
		return fmt.Errorf("writing lock: %w", err)
	}
	isLock := func(content []byte) bool {
		_, err := model.ParseLock(content)
		return err == nil
	}
	err = safefile.Write(path, data, safefile.Options{Mine: isLock, Force: force, Perm: 0o644})
	var refused *safefile.RefusedError
	if errors.As(err, &refused) && refused.Forcible {
		return fmt.Errorf("writing lock: %v; --force replaces it", err)
	}
	if err != nil {
		return fmt.Errorf("writing lock: %w", err)
	}
	return nil
}
