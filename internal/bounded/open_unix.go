//go:build unix

package bounded

import (
	"os"
	"syscall"
)

// openFile opens path without blocking: O_NONBLOCK makes the open of a
// FIFO with no writer return at once, so that Open can refuse it. On a
// regular file the flag changes nothing.
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
