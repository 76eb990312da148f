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
		{
			Name: "claude-desktop", Version: "2025", Policy: "claude-code",
			Handshake: Handshake{
				ClientInfo:      ClientInfo{Name: "claude-ai", Version: "0.1.0"},
				ProtocolVersion: "2025-06-18",
			},
			Sources: []Source{
				src("clientInfo.name", fromIssue),
				src("clientInfo.version", fromThirdParty),
				src("capabilities", fromIssue+" (none in 2025)"),
				src("protocolVersion", fromThirdParty),
				src("policy", "unconfirmed: Claude Desktop names tools as Claude Code does"),
			},
		},
		{
			Name: "claude-desktop", Version: "2026", Policy: "claude-code",
			Handshake: Handshake{
				ClientInfo:      ClientInfo{Name: "claude-ai", Version: "0.1.0"},
				Capabilities:    Capabilities{Roots: &RootsCapability{}},
				ProtocolVersion: "2025-06-18",
			},
			Sources: []Source{
				src("clientInfo.name", fromIssue),
				src("clientInfo.version", fromThirdParty),
				src("capabilities", fromIssue+" (roots from 2026)"),
				src("protocolVersion", fromThirdParty),
				src("policy", "unconfirmed: Claude Desktop names tools as Claude Code does"),
			},
		},
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
				},
				ProtocolVersion: "2025-11-25",
			},
			Sources: []Source{
				src("clientInfo", fromIssue+" (name \"Visual Studio Code\", version the product's)"),
				src("capabilities", fromIssue),
				src("protocolVersion", fromPinned),
			},
		},
		{
			Name: "gemini-cli", Version: "0.34", Policy: "gemini-cli",
			Handshake: Handshake{
				ClientInfo:      ClientInfo{Name: "gemini-cli-mcp-client", Version: "0.0.1"},
				Capabilities:    Capabilities{Roots: &RootsCapability{ListChanged: true}},
				ProtocolVersion: "2025-11-25",
			},
			Sources: []Source{
				src("clientInfo.name", fromIssue+"; third-party records agree"),
				src("clientInfo.version", fromThirdParty+" (\"0.0.1\")"),
				src("capabilities", fromIssue+"; third-party records agree (roots {listChanged:true})"),
				src("protocolVersion", fromPinned),
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
				src("clientInfo", fromThirdParty+": name codex-mcp-client, title Codex, version the release's"),
				src("capabilities", fromIssue+"; a third-party test of codex 0.146.0 sends elicitation {form,url}"),
				src("protocolVersion", fromThirdParty+" (2025-06-18 with codex 0.92 to 0.154)"),
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

// neutral is the profile of a client that exists here only as a naming
// policy: mcplens's own handshake.
func neutral(policy string) Client {
	return Client{
		Name: policy, Policy: policy, Handshake: NeutralHandshake(),
		Sources: []Source{src("handshake", "mcplens's neutral handshake: the client is profiled only for its naming")},
	}
}
