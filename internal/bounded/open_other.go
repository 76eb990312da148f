//go:build !unix

package bounded

import (
	"os"
)

// openFile opens path when it names a regular file, looking before it
// opens: where there is no O_NONBLOCK, a pipe or a device is refused from
// its description, and the file opened must be the one described, so
// that a path swapped in between is not read (Open checks the opened
// file again).
func openFile(path string) (*os.File, error) {
	before, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: fileKind(before.Mode())}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if after, err := f.Stat(); err != nil || !os.SameFile(before, after) {
		f.Close()
		return nil, &NotRegularError{Path: path, Kind: "a file replaced while it was opened"}
	}
	return f, nil
}
