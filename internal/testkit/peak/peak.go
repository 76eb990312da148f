package peak

import (
	"fmt"
	"os/exec"
)

// Run runs cmd to its end and returns its peak resident set in bytes, as
// the kernel accounted it (getrusage's ru_maxrss: the VmHWM of the process
// at exit; not on Windows, where Run returns an error). cmd's own error (a non-zero exit) is returned beside the
// figure, which holds either way once the process ran.
func Run(cmd *exec.Cmd) (int64, error) {
	err := cmd.Run()
	if cmd.ProcessState == nil {
		return 0, err
	}
	n, ok := maxRSS(cmd.ProcessState)
	if !ok {
		return 0, fmt.Errorf("no resource usage for %s on this platform", cmd.Path)
	}
	return n, err
}

// MiB formats n bytes as mebibytes with one decimal.
func MiB(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
