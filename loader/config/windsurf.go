package config

// windsurf is Windsurf's mcp_config.json: editor variables, a remote
// server's "serverUrl", and a server or some of its tools disabled.
type windsurf struct{ defaults }

var windsurfLayout = layout{
	Format:     Format{"windsurf", "Windsurf", "~/.codeium/windsurf/mcp_config.json"},
	serversKey: "mcpServers", strict: true, dialect: editorVars,
	keys:    []string{"command", "args", "env", "serverUrl", "url", "headers", "disabled", "disabledTools"},
	exclude: "disabledTools",
}

func (windsurf) layout() *layout { return &windsurfLayout }

func (windsurf) claims(base, dir string) bool { return base == "mcp_config.json" }

func (windsurf) fit(root *node) fit {
	if usesKey(root, "serverUrl", "disabledTools", "disabled") {
		return keyFit
	}
	return noFit
}

func (windsurf) userFiles(d userDirs) []string {
	return []string{d.join(d.home, ".codeium", "windsurf", "mcp_config.json")}
}

func (w windsurf) transport(raw *rawServer) (string, string, string) {
	if raw.serverURL.set {
		return TransportHTTP, raw.serverURL.s, ""
	}
	return w.defaults.transport(raw)
}

func (windsurf) nothingToStart(*rawServer) string { return nothingToStart(`"serverUrl"`) }
