package bounded

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A NotRegularError says that a file mcplens was given is not a regular
// file: what it is instead.
type NotRegularError struct {
	Path string
	Kind string // "a named pipe (FIFO)", "a character device", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind)
}

// Open opens the regular file at path for reading, and says what it is.
// Anything else (a FIFO, a device, a socket, a directory) is refused with
// a *NotRegularError, at once: the open itself never waits for a writer.
// A symbolic link is followed.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := openFile(path)
	if err != nil {
		// A socket cannot be opened at all (ENXIO): say what it is.
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			return nil, nil, &NotRegularError{Path: path, Kind: fileKind(st.Mode())}
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Kind: fileKind(st.Mode())}
	}
	return f, st, nil
}

// ReadFile reads the whole regular file at path, at most max bytes: a
// larger one is refused unread (its size says so) with a *LimitError
// naming limit, and a file that grows past max while read is refused too.
// It is for documents parsed whole (a config, a lock, a snapshot); a file
// that can be big is read with Lines.
func ReadFile(path string, max int64, limit string) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	over := &LimitError{Limit: limit, Max: max, What: path}
	if st.Size() > max {
		return nil, over
	}
	// Sized once from the file's size (plus one byte to see the end), so
	// that reading does not double the buffer on the way.
	data := make([]byte, 0, st.Size()+1)
	r := io.LimitReader(f, max+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > max {
		return nil, over
	}
	return data, nil
}

// fileKind names what a file that is not a regular file is, for a message.
func fileKind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
