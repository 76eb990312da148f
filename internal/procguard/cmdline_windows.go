package procguard

import (
	"os/exec"
	"syscall"
)

// setCmdLine gives cmd the command line line as is ("" keeps the one
// built from its arguments).
func setCmdLine(cmd *exec.Cmd, line string) {
	if line != "" {
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line}
	}
}
