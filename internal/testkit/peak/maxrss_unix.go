//go:build unix

package peak

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS returns ru_maxrss in bytes: Linux counts it in kilobytes, macOS
// in bytes.
func maxRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss), true
	}
	return int64(ru.Maxrss) * 1024, true
}
