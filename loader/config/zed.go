package config

import "strings"

// zed is Zed's settings.json: servers under "context_servers", a command
// given as {"path", "args", "env"}, and servers an extension provides.
type zed struct{ defaults }

var zedLayout = layout{
	Format:     Format{"zed", "Zed", "~/.config/zed/settings.json, .zed/settings.json"},
	serversKey: "context_servers", project: ".zed/settings.json", dialect: noVars,
	keys: []string{"command", "args", "env", "url", "headers", "source", "settings"},
}

func (zed) layout() *layout { return &zedLayout }

func (zed) claims(base, dir string) bool {
	// %APPDATA%\Zed on Windows.
	return base == "settings.json" && (strings.EqualFold(dir, "zed") || dir == ".zed")
}

func (zed) userFiles(d userDirs) []string {
	switch d.goos {
	case "windows": // %APPDATA%\Zed
		return []string{d.join(d.appData, "Zed", "settings.json")}
	case "linux": // $XDG_CONFIG_HOME/zed
		return []string{d.join(d.appData, "zed", "settings.json")}
	}
	return []string{d.join(d.home, ".config", "zed", "settings.json")} // macOS: ~/.config/zed

}

func (zed) fit(root *node) fit {
	if root.get("context_servers") != nil {
		return sureFit
	}
	return noFit
}

func (zed) field(r *reader, raw *rawServer, m member) error {
	if m.key == "command" && m.val.kind == objectNode {
		return r.zedCommand(raw, m.val)
	}
	return r.field(raw, m)
}

func (z zed) nothingToStart(raw *rawServer) string {
	if raw.source.s == "extension" {
		return "a Zed extension provides this server; mcplens cannot start it"
	}
	return z.defaults.nothingToStart(raw)
}

// zedCommand reads Zed's {"path": ..., "args": [...], "env": {...}} form.
func (r *reader) zedCommand(raw *rawServer, obj *node) error {
	for _, m := range obj.members {
		var err error
		switch m.key {
		case "path", "command":
			raw.command, err = r.str(raw.label, m)
		case "args":
			raw.args, err = r.strs(raw.label, m)
		case "env":
			raw.env, err = r.pairs(raw.label, m)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
