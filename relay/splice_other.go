//go:build !linux

package relay

import (
	"io"
	"os"
)

// drainSpliced leaves drain to read and write: only Linux splices.
func drainSpliced(io.Writer, *os.File, *Stream, *exitNote) bool { return false }

// feedSpliced leaves feed to read and write: only Linux splices.
func feedSpliced(*os.File, io.Reader, *Stream) bool { return false }
