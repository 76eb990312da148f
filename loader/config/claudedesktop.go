package config

// claudeDesktop is Claude Desktop's claude_desktop_config.json: stdio
// servers only, strings as written. Its content looks like Claude Code's,
// so only its file name tells it apart.
type claudeDesktop struct{ defaults }

var claudeDesktopLayout = layout{
	Format:     Format{"claude-desktop", "Claude Desktop", "claude_desktop_config.json"},
	serversKey: "mcpServers", named: "claude_desktop_config.json", strict: true, dialect: noVars,
	keys: []string{"command", "args", "env"},
}

func (claudeDesktop) layout() *layout { return &claudeDesktopLayout }

func (claudeDesktop) claims(base, dir string) bool { return base == "claude_desktop_config.json" }

func (claudeDesktop) transport(*rawServer) (string, string, string) { return TransportStdio, "", "" }

func (claudeDesktop) nothingToStart(*rawServer) string {
	return `no "command": Claude Desktop starts only stdio servers from this file`
}

func (claudeDesktop) userFiles(d userDirs) []string {
	return []string{d.join(d.appData, "Claude", "claude_desktop_config.json")}
}
