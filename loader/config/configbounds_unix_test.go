//go:build unix

package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader/config"
)

// A FIFO, a device and a directory are refused at once, saying what they
// are: opening a FIFO nobody writes to blocks, and /dev/zero never ends.
func TestConfigNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "mcp.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{fifo, "mcp.json is a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "/dev/zero is a character device, not a regular file"},
		{dir, "is a directory, not a regular file"},
	}
	for _, tt := range tests {
		_, err := loadWithin(t, tt.path, config.Options{}, 10*time.Second)
		if err == nil || !strings.HasPrefix(err.Error(), "loading config: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%s) = %v, want %q", tt.path, err, tt.want)
		}
	}
}

// Locate reads each file it finds within the bounds: a deep one and a
// FIFO get their errors, and the file beside them is listed as usual.
func TestLocateBounded(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "app")
	for _, d := range []string{".cursor", ".vscode"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	deep := `{"mcpServers": ` + strings.Repeat(`{"a":`, 500_000) + strings.Repeat("}", 500_001)
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(deep), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(project, ".cursor", "mcp.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".vscode", "mcp.json"), []byte(`{"servers": {"v": {"command": "v"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []config.Found, 1)
	go func() { done <- config.Locate(project, home, config.Options{}) }()
	var found []config.Found
	select {
	case found = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Locate still running after a minute")
	}
	var got []string
	for _, f := range found {
		line := filepath.Base(filepath.Dir(f.Path)) + "/" + filepath.Base(f.Path) + ": "
		if f.Err != nil {
			line += f.Err.Error()[strings.Index(f.Err.Error(), f.Path)+len(f.Path):]
		} else {
			line += f.Config.Format
		}
		got = append(got, line)
	}
	want := []string{
		"app/.mcp.json: :1:" + itoa(len(`{"mcpServers": `)+511*len(`{"a":`)+1) + ": nested more than 512 levels deep; no MCP client config nests that deep",
		".cursor/mcp.json:  is a named pipe (FIFO), not a regular file",
		".vscode/mcp.json: vscode",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Locate =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
