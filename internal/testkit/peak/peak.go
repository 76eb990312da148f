package peak

import (
	"fmt"
	"os/exec"
	"syscall"
)

// Run runs cmd to its end and returns its peak resident set in bytes, as
// the kernel accounted it (getrusage's ru_maxrss: the VmHWM of the process
// at exit). cmd's own error (a non-zero exit) is returned beside the
// figure, which holds either way once the process ran.
func Run(cmd *exec.Cmd) (int64, error) {
	err := cmd.Run()
	if cmd.ProcessState == nil {
		return 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, fmt.Errorf("no resource usage for %s on this platform", cmd.Path)
	}
	return ru.Maxrss * 1024, err // Linux reports kilobytes
}

// MiB formats n bytes as mebibytes with one decimal.
func MiB(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
