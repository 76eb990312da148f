//go:build unix

package procguard

import "os/exec"

// setCmdLine has nothing to set: a command line is Windows's alone.
func setCmdLine(*exec.Cmd, string) {}
