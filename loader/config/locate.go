package config

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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

// userDirs are the folders clients keep the user's settings under, on
// one system (goos), as that system writes paths.
type userDirs struct {
	goos   string
	getenv func(string) string
	home   string // ~, %USERPROFILE% on Windows
	// appData is where a desktop app keeps the user's settings: %APPDATA%
	// on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME
	// (else ~/.config) on Linux.
	appData string
}

func userDirsOf(goos string, getenv func(string) string, home string) userDirs {
	d := userDirs{goos: goos, getenv: getenv, home: home}
	switch goos {
	case "windows":
		d.appData = getenv("APPDATA")
		if d.appData == "" {
			d.appData = d.join(home, "AppData", "Roaming")
		}
	case "darwin":
		d.appData = d.join(home, "Library", "Application Support")
	default:
		d.appData = getenv("XDG_CONFIG_HOME")
		if d.appData == "" {
			d.appData = d.join(home, ".config")
		}
	}
	return d
}

// join joins path elements with the separator of d's system.
func (d userDirs) join(elem ...string) string {
	if d.goos != "windows" {
		return path.Join(elem...)
	}
	for i, e := range elem {
		elem[i] = strings.ReplaceAll(e, `\`, "/")
	}
	return strings.ReplaceAll(path.Join(elem...), "/", `\`)
}

// A UserFile is where a client keeps the user's own servers.
type UserFile struct {
	Format string // the format's name: "claude-desktop", "vscode", ...
	Path   string
}

// UserFiles lists where each client keeps the user's servers on the system
// goos ("windows", "darwin", "linux"), given its environment (getenv:
// APPDATA, XDG_CONFIG_HOME, CODEX_HOME) and the user's home folder
// (%USERPROFILE% on Windows): docs/configs.md gives each location's
// source. It reads no file; Locate reads those that exist.
func UserFiles(goos string, getenv func(string) string, home string) []UserFile {
	d := userDirsOf(goos, getenv, home)
	var files []UserFile
	for _, f := range formats {
		for _, p := range f.userFiles(d) {
			files = append(files, UserFile{Format: f.layout().Name, Path: p})
		}
	}
	return files
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
	for _, f := range formats {
		if name := f.layout().named; name != "" {
			add(filepath.Join(dir, name), "project") // a copy kept beside a project
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		if home != "" && d == home {
			break
		}
		for _, f := range formats {
			if rel := f.layout().project; rel != "" {
				add(filepath.Join(d, filepath.FromSlash(rel)), "project")
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if home != "" {
		for _, f := range UserFiles(runtime.GOOS, os.Getenv, home) {
			add(f.Path, "user")
		}
	}
	return slices.Clip(found)
}
