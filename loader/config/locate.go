package config

import (
	"os"
	"path/filepath"
	"slices"
)

// A Found is a config file located where a client keeps one.
type Found struct {
	Path string
	// Scope is "project" for a file of the current directory or one above
	// it, "user" for one in the user's own settings.
	Scope string
	// Config is the file read, without starting anything; nil when Err.
	Config *Config
	Err    error
}

// projectFiles are where clients keep a project's servers, relative to the
// project's folder.
var projectFiles = []string{
	".mcp.json",
	".cursor/mcp.json",
	".vscode/mcp.json",
	".gemini/settings.json",
	".zed/settings.json",
	".codex/config.toml",
}

// userFiles returns where clients keep the user's servers.
func userFiles(home string) []string {
	config := os.Getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	codex := os.Getenv("CODEX_HOME")
	if codex == "" {
		codex = filepath.Join(home, ".codex")
	}
	appSupport := filepath.Join(home, "Library", "Application Support")
	return []string{
		filepath.Join(home, ".claude.json"),
		filepath.Join(config, "Claude", "claude_desktop_config.json"),
		filepath.Join(appSupport, "Claude", "claude_desktop_config.json"),
		filepath.Join(home, ".cursor", "mcp.json"),
		filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"),
		filepath.Join(config, "Code", "User", "mcp.json"),
		filepath.Join(appSupport, "Code", "User", "mcp.json"),
		filepath.Join(home, ".gemini", "settings.json"),
		filepath.Join(codex, "config.toml"),
		filepath.Join(config, "zed", "settings.json"),
	}
}

// Locate lists the config files of every client it knows: those of dir
// and of each folder above it (below home), then the user's own. Each is
// read as LoadWith reads it, with opts and within the same bounds, to say
// its format and servers; nothing is started. A file that is too large,
// nested too deep or not a regular file (a FIFO named .mcp.json) gets its
// error, and the others are listed as usual.
func Locate(dir, home string, opts Options) []Found {
	var found []Found
	seen := map[string]bool{}
	add := func(path, scope string) {
		abs, err := filepath.Abs(path)
		if err != nil || seen[abs] {
			return
		}
		if st, err := os.Stat(abs); err != nil || st.IsDir() {
			return
		}
		seen[abs] = true
		f := Found{Path: abs, Scope: scope}
		f.Config, f.Err = LoadWith(abs, opts)
		found = append(found, f)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if home != "" && d == home {
			break
		}
		for _, rel := range projectFiles {
			add(filepath.Join(d, filepath.FromSlash(rel)), "project")
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if home != "" {
		for _, path := range userFiles(home) {
			add(path, "user")
		}
	}
	return slices.Clip(found)
}
