package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A Format is one client's config file format.
type Format struct {
	// Name is the format's key, as given to --format.
	Name string
	// Client is the program that reads it.
	Client string
	// Files is where that client keeps it.
	Files string
}

// A format is a Format with how to read it.
type format struct {
	Format
	serversKey string
	strict     bool // the client reads strict JSON: no comments
	toml       bool
	dialect    dialect
	// keys are the server keys the format defines, applied or not by
	// mcplens; any other is an unknown key.
	keys []string
}

var formats = []*format{
	{
		Format:     Format{"claude-desktop", "Claude Desktop", "claude_desktop_config.json"},
		serversKey: "mcpServers", strict: true, dialect: noVars,
		keys: []string{"command", "args", "env"},
	},
	{
		Format:     Format{"claude-code", "Claude Code", ".mcp.json, ~/.claude.json"},
		serversKey: "mcpServers", strict: true, dialect: shellVars,
		keys: []string{"type", "command", "args", "env", "url", "headers"},
	},
	{
		Format:     Format{"cursor", "Cursor", ".cursor/mcp.json, ~/.cursor/mcp.json"},
		serversKey: "mcpServers", strict: true, dialect: editorVars,
		keys: []string{"type", "command", "args", "env", "envFile", "url", "headers"},
	},
	{
		Format:     Format{"windsurf", "Windsurf", "~/.codeium/windsurf/mcp_config.json"},
		serversKey: "mcpServers", strict: true, dialect: editorVars,
		keys: []string{"command", "args", "env", "serverUrl", "url", "headers", "disabled", "disabledTools"},
	},
	{
		Format:     Format{"vscode", "VS Code", ".vscode/mcp.json"},
		serversKey: "servers", dialect: vscodeVars,
		keys: []string{"type", "command", "args", "env", "envFile", "url", "headers", "dev"},
	},
	{
		Format:     Format{"gemini-cli", "Gemini CLI", ".gemini/settings.json, ~/.gemini/settings.json"},
		serversKey: "mcpServers", dialect: dollarVars,
		keys: []string{"type", "command", "args", "env", "cwd", "url", "httpUrl", "headers",
			"includeTools", "excludeTools", "timeout", "trust", "description", "oauth", "authProviderType"},
	},
	{
		Format:     Format{"codex", "Codex", "~/.codex/config.toml"},
		serversKey: "mcp_servers", toml: true, dialect: noVars,
		keys: []string{"command", "args", "env", "env_vars", "cwd", "url", "bearer_token_env_var",
			"http_headers", "env_http_headers", "enabled_tools", "disabled_tools", "enabled",
			"startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec"},
	},
	{
		Format:     Format{"zed", "Zed", "~/.config/zed/settings.json, .zed/settings.json"},
		serversKey: "context_servers", dialect: noVars,
		keys: []string{"command", "args", "env", "url", "headers", "source", "settings"},
	},
}

// Formats returns every config format mcplens reads, in the order content
// detection tries them.
func Formats() []Format {
	out := make([]Format, len(formats))
	for i, f := range formats {
		out[i] = f.Format
	}
	return out
}

func formatNamed(name string) *format {
	for _, f := range formats {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func formatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

func (f *format) defines(key string) bool { return slices.Contains(f.keys, key) }

// formatByName recognizes the files clients keep at known places.
func formatByName(path string) *format {
	base := filepath.Base(path)
	dir := filepath.Base(filepath.Dir(path))
	name := ""
	switch {
	case base == "claude_desktop_config.json":
		name = "claude-desktop"
	case base == ".mcp.json", base == ".claude.json":
		name = "claude-code"
	case base == "mcp.json" && dir == ".cursor":
		name = "cursor"
	case base == "mcp.json" && (dir == ".vscode" || dir == "User"):
		name = "vscode"
	case base == "mcp_config.json":
		name = "windsurf"
	case base == "settings.json" && dir == ".gemini":
		name = "gemini-cli"
	case base == "settings.json" && (dir == "zed" || dir == ".zed"):
		name = "zed"
	case base == "config.toml" && dir == ".codex":
		name = "codex"
	}
	return formatNamed(name)
}

// formatByContent picks the format whose keys the document uses, or nil.
func formatByContent(root *node) *format {
	if root.kind != objectNode {
		return nil
	}
	switch {
	case root.get("mcp_servers") != nil:
		return formatNamed("codex")
	case root.get("context_servers") != nil:
		return formatNamed("zed")
	case root.get("servers") != nil && root.get("mcpServers") == nil, root.get("inputs") != nil:
		return formatNamed("vscode")
	case root.get("projects") != nil:
		return formatNamed("claude-code")
	}
	m := root.get("mcpServers")
	if m == nil {
		return nil
	}
	name := "claude-code"
	for _, s := range m.val.members {
		for _, k := range s.val.members {
			switch k.key {
			case "serverUrl", "disabledTools", "disabled":
				return formatNamed("windsurf")
			case "httpUrl", "includeTools", "excludeTools", "trust", "timeout", "cwd":
				return formatNamed("gemini-cli")
			}
			if mentions(k.val, "${env:") {
				name = "cursor"
			}
		}
	}
	return formatNamed(name)
}

// mentions reports whether any string in n contains s.
func mentions(n *node, s string) bool {
	switch n.kind {
	case stringNode:
		return strings.Contains(n.text, s)
	case arrayNode:
		return slices.ContainsFunc(n.elems, func(e *node) bool { return mentions(e, s) })
	case objectNode:
		return slices.ContainsFunc(n.members, func(m member) bool { return mentions(m.val, s) })
	}
	return false
}

// A reader reads one document in one format into a Config.
type reader struct {
	d    *doc
	f    *format
	exp  *expander
	opts Options
	cfg  *Config
}

func newReader(d *doc, f *format, opts Options) *reader {
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	ws := opts.Workspace
	if ws == "" && (f.dialect == editorVars || f.dialect == vscodeVars) {
		ws = workspaceOf(d.path)
	}
	return &reader{
		d:    d,
		f:    f,
		opts: opts,
		exp:  &expander{dialect: f.dialect, lookupEnv: lookup, home: home, workspace: ws, inputs: opts.Inputs},
		cfg:  &Config{Path: d.path, Format: f.Name},
	}
}

// read reads the document's servers as its format says.
func (f *format) read(r *reader) error {
	switch f.Name {
	case "claude-code":
		if r.d.root.kind == objectNode && r.d.root.get("projects") != nil {
			return r.claudeUser()
		}
	case "vscode":
		if err := r.inputs(); err != nil {
			return err
		}
	}
	m, err := r.serversMember(r.d.root)
	if err != nil {
		return err
	}
	if r.cfg.Servers, err = r.serverList(m, false); err != nil {
		return err
	}
	if f.Name == "gemini-cli" {
		return r.geminiServerLists()
	}
	return nil
}

// serversMember finds the format's servers key in obj.
func (r *reader) serversMember(obj *node) (*member, error) {
	key := r.f.serversKey
	if obj.kind != objectNode {
		return nil, r.d.errorAt(obj.off, "top level is "+obj.describe()+`, want an object with "`+key+`"`)
	}
	var found *member
	for i := range obj.members {
		m := &obj.members[i]
		if m.key != key {
			continue
		}
		if found != nil {
			return nil, r.d.errorAt(m.off, `"`+key+`" appears twice`)
		}
		found = m
	}
	if found == nil {
		msg := `no "` + key + `" key at the top level`
		for _, other := range formats {
			if other.serversKey != key && obj.get(other.serversKey) != nil {
				msg += ` (found "` + other.serversKey + `": is this a ` + other.Client + ` file? try --format ` + other.Name + `)`
				break
			}
		}
		return nil, &Error{Path: r.d.path, Line: 1, Col: 1, Msg: msg}
	}
	return found, nil
}
