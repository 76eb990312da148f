package config

import (
	"slices"
)

// geminiCLI is Gemini CLI's .gemini/settings.json: $VAR variables, tool
// lists, and servers allowed or excluded by the top-level "mcp".
type geminiCLI struct{ defaults }

var geminiLayout = layout{
	Format:     Format{"gemini-cli", "Gemini CLI", ".gemini/settings.json, ~/.gemini/settings.json"},
	serversKey: "mcpServers", project: ".gemini/settings.json", dialect: dollarVars,
	keys: []string{"type", "command", "args", "env", "cwd", "url", "httpUrl", "headers",
		"includeTools", "excludeTools", "timeout", "trust", "description", "oauth", "authProviderType"},
	include: "includeTools", exclude: "excludeTools",
}

func (geminiCLI) layout() *layout { return &geminiLayout }

func (geminiCLI) claims(base, dir string) bool { return base == "settings.json" && dir == ".gemini" }

func (geminiCLI) fit(root *node) fit {
	if usesKey(root, "httpUrl", "includeTools", "excludeTools", "trust", "timeout", "cwd") {
		return keyFit
	}
	return noFit
}

func (geminiCLI) userFiles(d userDirs) []string {
	return []string{d.join(d.home, ".gemini", "settings.json")}
}

func (geminiCLI) read(r *reader) error {
	if err := r.readServers(); err != nil {
		return err
	}
	return r.geminiServerLists()
}

// transport: "httpUrl" is streamable HTTP; "url" is SSE unless "type"
// says http.
func (geminiCLI) transport(raw *rawServer) (string, string, string) {
	switch {
	case raw.httpURL.set:
		return TransportHTTP, raw.httpURL.s, ""
	case raw.url.set && raw.typ.s == "http":
		return TransportHTTP, raw.url.s, ""
	case raw.url.set:
		return TransportSSE, raw.url.s, ""
	}
	return TransportStdio, "", ""
}

func (geminiCLI) nothingToStart(*rawServer) string { return nothingToStart(`"url" or "httpUrl"`) }

// geminiServerLists applies Gemini CLI's "mcp": {"allowed": [...],
// "excluded": [...]}: a server not allowed, or excluded, is not started by
// the client; mcplens lists it with every tool filtered.
func (r *reader) geminiServerLists() error {
	mcp := r.d.root.get("mcp")
	if mcp == nil || mcp.val.kind != objectNode {
		return nil
	}
	list := func(key string) ([]string, bool, error) {
		m := mcp.val.get(key)
		if m == nil {
			return nil, false, nil
		}
		names, err := r.names("mcp", *m)
		return names, true, err
	}
	allowed, hasAllowed, err := list("allowed")
	if err != nil {
		return err
	}
	excluded, _, err := list("excluded")
	if err != nil {
		return err
	}
	for i := range r.cfg.Servers {
		s := &r.cfg.Servers[i]
		why := ""
		switch {
		case slices.Contains(excluded, s.Label):
			why = "listed in mcp.excluded"
		case hasAllowed && !slices.Contains(allowed, s.Label):
			why = "not listed in mcp.allowed"
		}
		if why != "" && !s.Disabled {
			s.Disabled = true
			s.Findings = append(s.Findings, "disabled ("+why+"): every tool is shown filtered")
		}
	}
	return nil
}
