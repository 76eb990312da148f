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

// userDirs are the folders clients keep the user's settings under.
type userDirs struct {
	home       string
	config     string // $XDG_CONFIG_HOME, else ~/.config
	appSupport string // macOS's ~/Library/Application Support
}

func userDirsOf(home string) userDirs {
	config := os.Getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	return userDirs{home: home, config: config, appSupport: filepath.Join(home, "Library", "Application Support")}
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
		dirs := userDirsOf(home)
		for _, f := range formats {
			for _, path := range f.userFiles(dirs) {
				add(path, "user")
			}
		}
	}
	return slices.Clip(found)
}
