package model

// A Policy is one client's rule for turning the catalogues of several
// servers into one registry: how a tool is named, and what happens when two
// rows want the same name.
type Policy struct {
	// Name is the policy's key, as given to --policy.
	Name string
	// Summary is a few words for a header line.
	Summary string
	// Source says where the rule comes from.
	Source string

	apply func(b *builder)
}

// Policies returns every policy, in the order the UI cycles through them: the
// five seed policies, then the client presets.
func Policies() []Policy {
	return []Policy{
		{
			Name:    "lionagi-legacy",
			Summary: "bare names, first declared wins",
			Source:  "ADR-0112 P1/P2: lionagi before the ADR, update=False",
			apply:   applyLegacy,
		},
		{
			Name:    "lionagi-legacy-update",
			Summary: "bare names, last declared overwrites",
			Source:  "ADR-0112 P8: lionagi before the ADR, update=True",
			apply:   applyLegacyUpdate,
		},
		{
			Name:    "lionagi",
			Summary: "always mcp__server__tool, fail-closed",
			Source:  "ADR-0112 D1, D3, D6",
			apply:   applyLionagi,
		},
		{
			Name:    "qwen",
			Summary: "mcp__server__tool, hashed when unsafe, last wins",
			Source:  "Qwen Code provider-safe normalization",
			apply:   applyQwen,
		},
		{
			Name:    "symfonic",
			Summary: "bare unless shared, then server.tool",
			Source:  "symfonic.tools.mcp.routing",
			apply:   applySymfonic,
		},
		{
			Name:    "claude-code",
			Summary: "mcp__server__tool, sanitized, first wins",
			Source:  "Claude Code MCP tool naming",
			apply:   applyClaudeCode,
		},
		{
			Name:    "codex",
			Summary: "mcp__server__tool, sanitized, SHA-1 past 64, first wins",
			Source:  "Codex MCP connection manager",
			apply:   applyCodex,
		},
		{
			Name:    "gemini-cli",
			Summary: "mcp_server_tool, cut to 63 around ..., last wins",
			Source:  "gemini-cli v0.34 and later",
			apply:   applyGeminiCLI,
		},
		{
			Name:    "vscode",
			Summary: "mcp_prefix_tool, prefix per server, cut to 64, first wins",
			Source:  "VS Code MCP tool ids",
			apply:   applyVSCode,
		},
		{
			Name:    "openai-agents",
			Summary: "bare names, any shared name fails the load",
			Source:  "OpenAI Agents SDK (Python), default mode",
			apply:   applyOpenAIAgents,
		},
	}
}

// PolicyNamed returns the policy with the given name.
func PolicyNamed(name string) (Policy, bool) {
	for _, p := range Policies() {
		if p.Name == name {
			return p, true
		}
	}
	return Policy{}, false
}

// Apply builds the registry the policy makes from the catalogues, taken in
// the order given (the config's declaration order). It is pure and
// deterministic, and it never panics: every advertised row gets exactly one
// Outcome, in catalogue row order. The zero Policy registers nothing and says
// so on every row.
func (p Policy) Apply(cats []Catalogue) *Registry {
	b := newBuilder(p.Name, forModel(cats))
	if p.apply == nil {
		for ci, cat := range cats {
			for i := range cat.Tools {
				b.drop(rowRef{ci, i}, "no naming policy selected", "")
			}
		}
		return b.finish()
	}
	p.apply(b)
	return b.finish()
}

// rows calls f for every advertised row in registration order: catalogues in
// the order given, rows in the order advertised. f gets the row by pointer
// (a Tool is some 200 bytes) and must not change it.
func (b *builder) rows(f func(ref rowRef, t *Tool)) {
	for ci, cat := range b.cats {
		for i := range cat.Tools {
			f(rowRef{ci, i}, &cat.Tools[i])
		}
	}
}
