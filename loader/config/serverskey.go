package config

// ServersKey returns the key the format named format keeps its servers
// under ("mcpServers", "servers", "context_servers", "mcp_servers"), and
// whether the format is TOML; ok is false for a format mcplens does not
// read. A tool that edits a config in place (mcplens tap install) finds
// the servers there.
func ServersKey(format string) (key string, toml, ok bool) {
	f := formatNamed(format)
	if f == nil {
		return "", false, false
	}
	l := f.layout()
	return l.serversKey, l.toml, true
}
