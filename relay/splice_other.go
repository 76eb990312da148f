//go:build !linux

package relay

import (
	"io"
	"os"
	"sync/atomic"
)

// drainSpliced leaves drain to read and write: only Linux splices.
func drainSpliced(io.Writer, *os.File, *Stream, *atomic.Bool) bool { return false }

// feedSpliced leaves feed to read and write: only Linux splices.
func feedSpliced(*os.File, io.Reader, *Stream) bool { return false }
