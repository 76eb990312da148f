package model

// The client profiles, as data: each client's versions oldest first, then
// the clients that exist here only as naming policies, with mcplens's
// neutral handshake. Every fact carries where it was read and when. A value
// the client's own source could not be read for says "unconfirmed" and
// where it comes from: the table of mcplens issue 13 (collected from public
// write-ups), or third-party records of the client's initialize request
// (servers and tests that match on it).

// read is the date the facts below were read.
const read = "2026-12-01"

// Files read in the clients' own repositories.
const (
	vscodeSource = "https://github.com/microsoft/vscode/blob/c5308376f79a19368c9bd9dccc81090aa1bfcb79/" +
		"src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts (McpServerRequestHandler.create)"
	geminiSource = "https://github.com/google-gemini/gemini-cli/blob/5411f113cafae26161b4969b0237b8e1e024e2c2/" +
		"packages/core/src/tools/mcp-client.ts (connectToMcpServer; package 0.56.0-nightly)"
	codexSource = "https://github.com/openai/codex/blob/00302de71ca3c3d5fc3f9361b7111ca41964f8c5/" +
		"codex-rs/core/src/mcp_connection_manager.rs (start_server_task)"
)

// appsNote says where the one profile that hosts MCP Apps has it from.
// Claude (Claude Desktop and claude.ai), ChatGPT, VS Code and Goose host
// apps by the extension's announcement; of these only Claude Desktop has a
// profile of a release that does: VS Code's is 1.105, older than the
// extension, and ChatGPT and Goose have none.
const appsNote = "extensions io.modelcontextprotocol/ui (MCP Apps) unconfirmed: Claude hosts apps from the " +
	"extension's release (2026-01-26, https://github.com/modelcontextprotocol/ext-apps)"

const (
	fromIssue      = "from the issue's table, unconfirmed"
	fromThirdParty = "unconfirmed: third-party records of the client's initialize request (servers matching on clientInfo)"
	fromPinned     = "unconfirmed: not in the issue's table; mcplens's pinned revision"
)

func src(field, from string) Source { return Source{Field: field, From: from, Read: read} }

// Clients returns every client profile, in the order --client lists them.
func Clients() []Client {
	return []Client{
		{
			Name: "claude-code", Version: "2.1", Policy: "claude-code",
			Handshake: Handshake{
				ClientInfo: ClientInfo{Name: "claude-code", Version: "2.1.0"},
				Capabilities: Capabilities{
					Roots:       &RootsCapability{ListChanged: true},
					Elicitation: &ElicitationCapability{Form: true},
				},
				ProtocolVersion: "2025-11-25",
			},
			Sources: []Source{
				src("clientInfo.name", fromIssue+"; also matched on as \"claude-code\" by third-party servers"),
				src("clientInfo.version", "unconfirmed: the release the profile is named for"),
				src("capabilities", fromIssue+" (elicitation absent in some 2.1.x versions)"),
				src("protocolVersion", fromPinned),
			},
		},
		claudeDesktop("2025", Capabilities{}, "none in 2025"),
		claudeDesktop("2026", Capabilities{Roots: &RootsCapability{}, Apps: true}, "roots from 2026; "+appsNote),
		{
			Name: "cursor", Version: "1.7", Policy: "vscode",
			Handshake: Handshake{
				ClientInfo: ClientInfo{Name: "cursor-vscode", Version: "1.0.0"},
				Capabilities: Capabilities{
					// {listChanged:false}: false is the default, so it is sent
					// as roots {}, which says the same.
					Roots:       &RootsCapability{ListChanged: false},
					Elicitation: &ElicitationCapability{Form: true},
				},
				ProtocolVersion: "2025-06-18",
			},
			Sources: []Source{
				src("clientInfo.name", fromIssue+"; also matched on as \"cursor-vscode\" by third-party servers"),
				src("clientInfo.version", fromThirdParty),
				src("capabilities", fromIssue),
				src("protocolVersion", fromThirdParty),
				src("policy", "unconfirmed: Cursor is a VS Code fork"),
			},
		},
		{
			Name: "vscode", Version: "1.105", Policy: "vscode",
			Handshake: Handshake{
				ClientInfo: ClientInfo{Name: "Visual Studio Code", Version: "1.105.0"},
				Capabilities: Capabilities{
					Roots:       &RootsCapability{ListChanged: true},
					Sampling:    true,
					Elicitation: &ElicitationCapability{Form: true, URL: true},
					Tasks:       &TasksCapability{List: true, Cancel: true, Sampling: true, Elicitation: true},
				},
				ProtocolVersion: "2025-11-25",
			},
			Sources: []Source{
				src("clientInfo", vscodeSource+": productService.nameLong and .version; the version is the release the profile is named for"),
				src("capabilities", vscodeSource+": roots {listChanged:true}, sampling {} and elicitation {form,url} "+
					"(each when a handler is registered, as in the product), and tasks {list, cancel, requests: "+
					"{sampling: {createMessage}, elicitation: {create}}}; mcplens answers a task-augmented request at once, "+
					"never as a task, and so has no task to list (tasks/list answers none)"),
				src("protocolVersion", vscodeSource+": MCP.LATEST_PROTOCOL_VERSION of its bundled schema; "+
					"2025-11-25 inferred from the capabilities of that revision it declares, unconfirmed"),
				src("refusal", vscodeSource+": an undeclared request is answered McpError.methodNotFound, -32601"),
			},
		},
		{
			Name: "gemini-cli", Version: "0.56", Policy: "gemini-cli",
			Handshake: Handshake{
				ClientInfo:      ClientInfo{Name: "gemini-cli-mcp-client", Version: "0.56.0"},
				Capabilities:    Capabilities{Roots: &RootsCapability{ListChanged: true}},
				ProtocolVersion: "2025-11-25",
			},
			Sources: []Source{
				src("clientInfo", geminiSource+": name gemini-cli-mcp-client, version the CLI's "+
					"(older releases sent gemini-cli-mcp-client-SERVER, 0.0.1)"),
				src("capabilities", geminiSource+": registerCapabilities({roots: {listChanged: true}}), nothing else"),
				src("protocolVersion", "unconfirmed: @modelcontextprotocol/sdk 1.23.0's LATEST_PROTOCOL_VERSION, taken as 2025-11-25"),
			},
		},
		{
			Name: "codex", Version: "0.146", Policy: "codex",
			Handshake: Handshake{
				ClientInfo:      ClientInfo{Name: "codex-mcp-client", Version: "0.146.0", Title: "Codex"},
				Capabilities:    Capabilities{Elicitation: &ElicitationCapability{Form: true, URL: true}},
				ProtocolVersion: "2025-06-18",
			},
			Sources: []Source{
				src("clientInfo", codexSource+": name codex-mcp-client, title Codex, version CARGO_PKG_VERSION"),
				src("protocolVersion", codexSource+": ProtocolVersion::V_2025_06_18; third-party records agree for codex 0.92 to 0.154"),
				src("capabilities", fromIssue+"; a third-party test of codex 0.146.0 sends elicitation {form,url}; "+
					"at the commit read, elicitation {form} went only to Codex's own apps server, nothing to others"),
			},
		},
		{
			Name: "openai-agents", Policy: "openai-agents",
			Handshake: Handshake{
				ClientInfo:      ClientInfo{Name: "mcp", Version: "0.1.0"},
				ProtocolVersion: "2025-06-18",
			},
			Sources: []Source{
				src("handshake", "unconfirmed: the MCP Python SDK's ClientSession defaults (clientInfo mcp 0.1.0, "+
					"no capabilities without callbacks), which the Agents SDK does not override; not versioned"),
			},
		},
		neutral("lionagi"),
		neutral("lionagi-legacy"),
		neutral("lionagi-legacy-update"),
		neutral("qwen"),
		neutral("symfonic"),
	}
}

// claudeDesktop is Claude Desktop at a version: only its capabilities
// change from one to the next.
func claudeDesktop(version string, caps Capabilities, capsNote string) Client {
	return Client{
		Name: "claude-desktop", Version: version, Policy: "claude-code",
		Handshake: Handshake{
			ClientInfo:      ClientInfo{Name: "claude-ai", Version: "0.1.0"},
			Capabilities:    caps,
			ProtocolVersion: "2025-06-18",
		},
		Sources: []Source{
			src("clientInfo.name", fromIssue+"; also matched on as \"claude-ai\" by third-party servers"),
			src("clientInfo.version", fromThirdParty),
			src("capabilities", fromIssue+" ("+capsNote+")"),
			src("protocolVersion", fromThirdParty),
			src("policy", "unconfirmed: Claude Desktop names tools as Claude Code does"),
		},
	}
}

// neutral is the profile of a client that exists here only as a naming
// policy: mcplens's own handshake.
func neutral(policy string) Client {
	return Client{
		Name: policy, Policy: policy, Handshake: NeutralHandshake(),
		Sources: []Source{src("handshake", "mcplens's neutral handshake: the client is profiled only for its naming")},
	}
}
