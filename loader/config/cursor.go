package config

// cursor is Cursor's .cursor/mcp.json: editor variables (${env:VAR},
// ${workspaceFolder}) and an envFile.
type cursor struct{ defaults }

var cursorLayout = layout{
	Format:     Format{"cursor", "Cursor", ".cursor/mcp.json, ~/.cursor/mcp.json"},
	serversKey: "mcpServers", project: ".cursor/mcp.json", strict: true, dialect: editorVars,
	keys: []string{"type", "command", "args", "env", "envFile", "url", "headers", "auth"},
}

func (cursor) layout() *layout { return &cursorLayout }

func (cursor) claims(base, dir string) bool { return base == "mcp.json" && dir == ".cursor" }

// fit: Claude Code would write ${VAR}, not ${env:VAR}.
func (cursor) fit(root *node) fit {
	for _, s := range mcpServers(root) {
		if mentions(s, "${env:") {
			return hintFit
		}
	}
	return noFit
}

func (cursor) userFiles(d userDirs) []string {
	return []string{d.join(d.home, ".cursor", "mcp.json")}
}
