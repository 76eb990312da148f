package relay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/recording"
)

// Recording sizes.
const (
	// DefaultRecordCap is the size at which a recording file is rotated:
	// FILE becomes FILE.1 (FILE.1 becomes FILE.2, and so on) and a new
	// FILE starts with the header line again.
	DefaultRecordCap = 64 << 20
	// DefaultRecordKeep is how many rotated files are kept (FILE.1 to
	// FILE.3): with the defaults a tap holds at most 256 MiB on disk.
	DefaultRecordKeep = 3
)

// A Recording writes frames to a JSONL file, 0600, rotated at a size cap.
// It is a Sink.
type Recording struct {
	path   string
	header []byte
	cap    int64
	keep   int

	f    *os.File
	size int64
	err  error // the first write error; later lines are not written
}

// RecordOptions configure a Recording.
type RecordOptions struct {
	// Cap is the size at which the file is rotated (0: DefaultRecordCap).
	Cap int64
	// Keep is how many rotated files are kept (0: DefaultRecordKeep).
	Keep int
}

// Record starts a recording at path whose files begin with header (see
// HeaderLine). A recording already at path is rotated to path.1 first.
// Record refuses, with a *safefile.RefusedError, a path that holds a
// symbolic link, something other than a regular file, or a file that is
// not a recording.
func Record(path string, header []byte, opts RecordOptions) (*Recording, error) {
	if opts.Cap <= 0 {
		opts.Cap = DefaultRecordCap
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultRecordKeep
	}
	r := &Recording{path: path, header: header, cap: opts.Cap, keep: opts.Keep}
	if ours, err := holdsRecording(path); err != nil {
		return nil, err
	} else if ours {
		if err := r.rotate(); err != nil {
			return nil, err
		}
	}
	if err := r.open(); err != nil {
		return nil, fmt.Errorf("recording to %s: %w", path, err)
	}
	return r, nil
}

// holdsRecording reports whether path is a regular file that begins as a
// recording does.
func holdsRecording(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil || !fi.Mode().IsRegular() {
		return false, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|safefile.NoFollow, 0)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	return recording.IsHeader(head[:n]), nil
}

// open creates a new file at r.path holding the header, through safefile
// (a temporary file renamed over the path, so that no link is followed),
// and opens it to append.
func (r *Recording) open() error {
	if err := safefile.Write(r.path, r.header, safefile.Options{Perm: 0o600}); err != nil {
		return err
	}
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND|safefile.NoFollow, 0)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%s is not a regular file", r.path)
	}
	r.f, r.size = f, fi.Size()
	return nil
}

// rotate moves path.(k) to path.(k+1), dropping the oldest, and path to
// path.1.
func (r *Recording) rotate() error {
	if r.f != nil {
		r.f.Close()
		r.f = nil
	}
	_ = os.Remove(r.rotated(r.keep))
	for k := r.keep - 1; k >= 1; k-- {
		if err := os.Rename(r.rotated(k), r.rotated(k+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(r.path, r.rotated(1))
}

func (r *Recording) rotated(k int) string { return r.path + "." + strconv.Itoa(k) }

// WriteLine appends line, rotating first when it would take the file over
// its cap. After a write fails, the recording stops; Err says why.
func (r *Recording) WriteLine(line []byte) {
	if r.err != nil {
		return
	}
	if r.size+int64(len(line)) > r.cap && r.size > int64(len(r.header)) {
		if err := r.rotate(); err != nil {
			r.err = err
			return
		}
		if r.err = r.open(); r.err != nil {
			return
		}
	}
	n, err := r.f.Write(line)
	r.size += int64(n)
	r.err = err
}

// Err returns the error that stopped the recording, if any.
func (r *Recording) Err() error { return r.err }

// Close closes the file.
func (r *Recording) Close() error {
	if r.f == nil {
		return r.err
	}
	err := r.f.Close()
	r.f = nil
	if r.err != nil {
		return r.err
	}
	return err
}
