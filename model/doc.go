// Package model is the domain of mcplens: what MCP servers advertised, the
// naming policies clients use to merge them into one registry, the provider
// rules every registered name is checked against, and the text handling that
// keeps server-supplied strings from acting on a terminal. It imports only
// the standard library, mcplens's own internal/jsonx (raw JSON read
// without decoding, and the canonical form lock hashes use) and levenshtein
// (the edit distance of Registry.Suggest's "did you mean"), never loader,
// report or ui; it does no I/O and never talks to a server: the loader
// produces catalogues, model turns them into a registry, the UI renders it.
//
//	cats := []model.Catalogue{
//		{Server: "alpha", Tools: []model.Tool{{Name: "request", NameOK: true}}},
//		{Server: "beta", Tools: []model.Tool{{Name: "request", NameOK: true}}},
//	}
//	p, _ := model.PolicyNamed("lionagi")
//	reg := p.Apply(cats)
//	rt, _ := reg.Lookup("mcp__beta__request")
//	fmt.Println(rt.Server, rt.Wire) // beta request: the call goes out as "request"
//	for _, prof := range model.DefaultProfiles() {
//		fmt.Println(prof.Check(reg.Servers[1].Outcomes[0]).Severity) // pass
//	}
//
// # Vocabulary
//
//   - server label: the key of the server in the config file ("alpha"),
//     never the server's self-reported name, which the spec does not make
//     unique.
//   - wire name: the tool name exactly as the server advertised it; the name
//     a tools/call must carry.
//   - registered name: the name a client's registry, and so the model, knows
//     the tool by under a policy.
//   - route: server label, wire name and row, fixed when the registry is
//     built. A call is a lookup of a route, never of a server by name.
//   - outcome: what a policy did with one advertised row: Registered (under
//     its wire name), Renamed (under another name), Dropped (never reached
//     the registry), Displaced (registered, then overwritten).
//
// Every policy gives every advertised row exactly one Outcome, so nothing
// disappears without a row saying why. Every policy fills the same
// per-server postcondition fields (ServerResult.Advertised, Registered,
// Missing), so servers can be compared across policies; lionagi alone acts
// on them.
//
// # Policies
//
// lionagi-legacy and lionagi-legacy-update register bare wire names, first
// declared wins or last declared overwrites. lionagi (ADR-0112) always
// registers mcp__{server}__{tool}, validated and never truncated. qwen
// normalizes mcp__{server}__{tool} to a provider-safe name with a hash.
// symfonic keeps bare names and qualifies as {server}.{tool} only names two
// servers share.
//
// The client presets follow, so a config can be seen the way the client
// that runs it names things: claude-code (mcp__{server}__{tool}, sanitized,
// first wins), codex (the same shape, a SHA-1 past 64 characters, labels
// outside ^[a-zA-Z0-9_-]+$ refused), gemini-cli (mcp_{server}_{tool}, long
// names cut around "...", last wins), vscode (a prefix per server, ids cut
// to 64) and openai-agents (bare names; a name two servers share fails the
// whole load). ClaudeCodeName, CodexName and GeminiName expose their naming
// functions.
//
// # Prompts
//
// Clients offer a server's prompts as slash commands, each named its own
// way. A PromptPolicy (PromptPolicyFor a client's tool policy) registers
// them through the same builder, so every listed prompt gets one Outcome
// and two servers' prompts collide as tools do: claude-code
// /mcp__{server}__{prompt}, gemini-cli /{prompt} or /{server}.{prompt}
// when shared, vscode /mcp.{server}.{prompt}; codex offers none.
//
// # Beyond naming
//
// Registry.Collisions lists every registered name more than one row wanted,
// why (a CollisionClass) and who holds it. Findings looks at the catalogues
// under no policy at all: text that hides or acts in names and
// descriptions, lookalike names across servers, descriptions that mention
// other servers, and wire names the MCP spec advises against.
//
// Choices mcplens makes where its sources leave room:
//
//   - lionagi is fail-closed. A server that fails its postcondition keeps
//     nothing in the registry: its otherwise valid rows are Dropped with the
//     reason "withheld: server alpha failed its postcondition (fail-closed)"
//     and keep the Name they would have had. Servers are committed in
//     declaration order, so a failed server holds no name a later one needs.
//   - lionagi's postcondition compares sets of usable wire names, as the ADR
//     does. ServerResult.Err reads
//     `advertised N tool(s) but M registered; missing: ["a", "b"]`: N and M
//     count distinct wire names, and the missing list is sorted with each
//     name Go-quoted (also valid Python). A row without a usable name is
//     Dropped and noted, but is not in either set, so it does not fail the
//     server; a wire name listed twice by one server registers once.
//   - ServerResult.Advertised counts rows and Registered counts live rows; a
//     failed lionagi server therefore shows Registered 0, while its Err
//     counts what passed before the server was withheld.
//   - A name overwritten by a later route (lionagi-legacy-update, qwen) keeps
//     its first position in Registry.Routes, as the clients' insertion-ordered
//     maps do.
//   - An Outcome is Registered when its registered name equals its wire name
//     and Renamed otherwise, under every policy.
//   - A label holding "__" gets a note under every mcp__{server}__{tool}
//     policy (lionagi, qwen, claude-code, codex): the name cannot be split
//     back, and a + b__c meets a__b + c.
//   - Where a preset's client leaves an order open, mcplens uses the
//     config's: servers in declaration order, rows in advertised order. The
//     preset files say where the client does otherwise and what it changes.
//
// Reasons, errors and check messages quote names where a character is the
// point (%q), and otherwise carry names as advertised: render every string
// from a server through Sanitize.
//
// # Secrets
//
// A config holds secrets, and servers quote them back. RedactArgs,
// RedactURL and MaskValue mask them where a config is printed; a Redactor,
// built from the exact values a config holds, masks them anywhere else:
// Redactor.Values in text shown as it came (frames, descriptions),
// Redactor.Text in messages, adding credential syntax (RedactText) but
// leaving prose as written.
package model
