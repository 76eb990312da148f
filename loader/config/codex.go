package config

// codex is Codex's ~/.codex/config.toml: TOML, strings as written,
// environment variables passed by name (env_vars) and tool lists.
type codex struct{ defaults }

var codexLayout = layout{
	Format:     Format{"codex", "Codex", "~/.codex/config.toml"},
	serversKey: "mcp_servers", project: ".codex/config.toml", toml: true, dialect: noVars,
	keys: []string{"command", "args", "env", "env_vars", "cwd", "url", "bearer_token_env_var",
		"http_headers", "env_http_headers", "enabled_tools", "disabled_tools", "enabled",
		"startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec"},
	include: "enabled_tools", exclude: "disabled_tools",
}

func (codex) layout() *layout { return &codexLayout }

func (codex) claims(base, dir string) bool { return base == "config.toml" && dir == ".codex" }

func (codex) fit(root *node) fit {
	if root.get("mcp_servers") != nil {
		return sureFit
	}
	return noFit
}

// userFiles: Codex keeps its settings in $CODEX_HOME, else ~/.codex.
func (codex) userFiles(d userDirs) []string {
	dir := d.getenv("CODEX_HOME")
	if dir == "" {
		dir = d.join(d.home, ".codex")
	}
	return []string{d.join(dir, "config.toml")}
}
