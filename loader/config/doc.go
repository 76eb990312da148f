// Package config reads MCP client config files: it owns the eight client
// formats (Claude Desktop, Claude Code, Cursor, Windsurf, VS Code, Gemini
// CLI, Codex, Zed; see Formats), how each expands variables, locating the
// config files a machine has (Locate), and the redaction of what a config
// holds (ServerSpec.Redacted, NewRedactor). It starts nothing. It imports
// model and never loader, ui or report: loader imports it to run the
// servers a Config lists.
//
// Load reads a file as its client would: its servers in declaration order
// (the first-declared server wins under the legacy naming policies),
// variables expanded its way, tool filters kept. It reads only a regular
// file of at most Options.MaxSize bytes, and refuses one nested more than
// 512 levels deep before any parser recurses into it, saying where
// (path:line:col). An unknown key or an unresolved variable is a finding
// on the server, not an error; a server that cannot be started is
// Blocked, saying why.
//
// Each format is a type in a file of its own (claudecode.go, vscode.go,
// ...) that implements the format interface (format.go), listed once in
// formats (formats.go): a new client's format is one new file and one
// line there.
//
//	cfg, err := config.Load("mcp.json")
//	if err != nil {
//		return err // "mcp.json:3:9: invalid character ',' ..."
//	}
//	for _, s := range cfg.Servers {
//		fmt.Println(s.Label, s.Transport, s.Redacted().Command)
//	}
package config
