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
	// A copy of Claude Desktop's file kept in the working folder.
	write(filepath.Join(sub, "claude_desktop_config.json"), `{"mcpServers": {"d": {"command": "d"}}}`)

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
		"project home/src/app/pkg/claude_desktop_config.json claude-desktop *",
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

// TestUserFiles: where each client keeps the user's servers, on each
// system, as its own documentation or source says (docs/configs.md gives
// each source). Paths are written as the system writes them.
func TestUserFiles(t *testing.T) {
	tests := []struct {
		goos, home string
		env        map[string]string
		want       []string // format path, in the order of config.Formats()
	}{
		{"windows", `C:\Users\Ann Lee`, map[string]string{"APPDATA": `C:\Users\Ann Lee\AppData\Roaming`}, []string{
			`claude-desktop C:\Users\Ann Lee\AppData\Roaming\Claude\claude_desktop_config.json`,
			`claude-code C:\Users\Ann Lee\.claude.json`,
			`cursor C:\Users\Ann Lee\.cursor\mcp.json`,
			`windsurf C:\Users\Ann Lee\.codeium\windsurf\mcp_config.json`,
			`vscode C:\Users\Ann Lee\AppData\Roaming\Code\User\mcp.json`,
			`gemini-cli C:\Users\Ann Lee\.gemini\settings.json`,
			`codex C:\Users\Ann Lee\.codex\config.toml`,
			`zed C:\Users\Ann Lee\AppData\Roaming\Zed\settings.json`,
		}},
		// Without %APPDATA%, its default under the profile; CODEX_HOME moves Codex's.
		{"windows", `D:\profiles\ann`, map[string]string{"CODEX_HOME": `D:\codex`}, []string{
			`claude-desktop D:\profiles\ann\AppData\Roaming\Claude\claude_desktop_config.json`,
			`claude-code D:\profiles\ann\.claude.json`,
			`cursor D:\profiles\ann\.cursor\mcp.json`,
			`windsurf D:\profiles\ann\.codeium\windsurf\mcp_config.json`,
			`vscode D:\profiles\ann\AppData\Roaming\Code\User\mcp.json`,
			`gemini-cli D:\profiles\ann\.gemini\settings.json`,
			`codex D:\codex\config.toml`,
			`zed D:\profiles\ann\AppData\Roaming\Zed\settings.json`,
		}},
		// macOS: Application Support for the desktop apps; Zed keeps
		// ~/.config/zed whatever XDG_CONFIG_HOME says.
		{"darwin", "/Users/ann", map[string]string{"XDG_CONFIG_HOME": "/Users/ann/xdg"}, []string{
			"claude-desktop /Users/ann/Library/Application Support/Claude/claude_desktop_config.json",
			"claude-code /Users/ann/.claude.json",
			"cursor /Users/ann/.cursor/mcp.json",
			"windsurf /Users/ann/.codeium/windsurf/mcp_config.json",
			"vscode /Users/ann/Library/Application Support/Code/User/mcp.json",
			"gemini-cli /Users/ann/.gemini/settings.json",
			"codex /Users/ann/.codex/config.toml",
			"zed /Users/ann/.config/zed/settings.json",
		}},
		{"linux", "/home/ann", map[string]string{"XDG_CONFIG_HOME": "/home/ann/xdg"}, []string{
			"claude-desktop /home/ann/xdg/Claude/claude_desktop_config.json",
			"claude-code /home/ann/.claude.json",
			"cursor /home/ann/.cursor/mcp.json",
			"windsurf /home/ann/.codeium/windsurf/mcp_config.json",
			"vscode /home/ann/xdg/Code/User/mcp.json",
			"gemini-cli /home/ann/.gemini/settings.json",
			"codex /home/ann/.codex/config.toml",
			"zed /home/ann/xdg/zed/settings.json",
		}},
		{"linux", "/home/ann", nil, []string{
			"claude-desktop /home/ann/.config/Claude/claude_desktop_config.json",
			"claude-code /home/ann/.claude.json",
			"cursor /home/ann/.cursor/mcp.json",
			"windsurf /home/ann/.codeium/windsurf/mcp_config.json",
			"vscode /home/ann/.config/Code/User/mcp.json",
			"gemini-cli /home/ann/.gemini/settings.json",
			"codex /home/ann/.codex/config.toml",
			"zed /home/ann/.config/zed/settings.json",
		}},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range config.UserFiles(tt.goos, func(k string) string { return tt.env[k] }, tt.home) {
			got = append(got, f.Format+" "+f.Path)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("UserFiles(%s, %s, %v) =\n%s\nwant\n%s", tt.goos, tt.home, tt.env, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
