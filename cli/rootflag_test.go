package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootMustBeAFolder: every command that takes --root, run as the real
// binary, refuses a missing folder or a file with exit 2 and a reason
// naming the path, before it starts any server; a folder is taken.
func TestRootMustBeAFolder(t *testing.T) {
	bin := build(t, "..")
	dir := t.TempDir()
	cfg := demoFile(t, dir, "mcp.json", demoServer{label: "alpha", tools: []string{"request"}})
	missing := filepath.Join(dir, "no-such-folder")
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := map[string][]string{
		"interface": {cfg},
		"check":     {"check", cfg},
		"call":      {"call", cfg, "alpha", "request"},
		"diff":      {"diff", cfg, cfg},
		"read":      {"read", cfg, "alpha", "mem://x"},
	}
	for name, args := range commands {
		for _, bad := range []struct{ root, why string }{{missing, "no such folder"}, {file, "not a folder"}} {
			t.Run(name+" "+bad.why, func(t *testing.T) {
				cmd := exec.Command(bin, append([]string{"--root", bad.root}, args...)...)
				if name != "interface" {
					cmd = exec.Command(bin, append([]string{args[0], "--root", bad.root}, args[1:]...)...)
				}
				out, err := cmd.CombinedOutput()
				code := cmd.ProcessState.ExitCode()
				if err != nil && code < 0 {
					t.Fatal(err)
				}
				if code != exitUsage || !strings.Contains(string(out), bad.root+": "+bad.why) {
					t.Errorf("mcplens %s --root %s: exit %d, %q; want %d naming the path: %s", name, bad.root, code, out, exitUsage, bad.why)
				}
			})
		}
	}
	cmd := exec.Command(bin, "check", "--root", dir, "--root", ".", cfg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("mcplens check --root %s --root .: %v\n%s", dir, err, out)
	}
}
