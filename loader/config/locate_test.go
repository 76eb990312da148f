package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
)

func TestLocate(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project := filepath.Join(home, "src", "app")
	sub := filepath.Join(project, "pkg")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(project, ".mcp.json"), `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`)
	write(filepath.Join(sub, ".vscode", "mcp.json"), `{"servers": {"v": {"type": "http", "url": "http://h"}}}`)
	write(filepath.Join(sub, ".cursor", "mcp.json"), `{"mcpServers": {`)
	write(filepath.Join(home, ".gemini", "settings.json"), `{"mcpServers": {"g": {"httpUrl": "http://g"}}}`)
	write(filepath.Join(home, ".config", "zed", "settings.json"), `{"context_servers": {"z": {"command": "z"}}}`)
	write(filepath.Join(home, ".codex", "config.toml"), "[mcp_servers.c]\ncommand = \"c\"\n")

	var got []string
	for _, f := range config.Locate(sub, home, config.Options{}) {
		rel, _ := filepath.Rel(root, f.Path)
		line := f.Scope + " " + filepath.ToSlash(rel) + " "
		if f.Err != nil {
			line += "error"
		} else {
			line += f.Config.Format + " " + strings.Repeat("*", len(f.Config.Servers))
		}
		got = append(got, line)
	}
	want := []string{
		"project home/src/app/pkg/.cursor/mcp.json error",
		"project home/src/app/pkg/.vscode/mcp.json vscode *",
		"project home/src/app/.mcp.json claude-code **",
		"user home/.gemini/settings.json gemini-cli *",
		"user home/.codex/config.toml codex *",
		"user home/.config/zed/settings.json zed *",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Locate =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
