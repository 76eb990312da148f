// The shape of a Report: the data every format renders, and the JSON
// report's schema.

package report

import "github.com/mcplens/mcplens/surface"

// Version is the version of the JSON report. Within one version fields are
// only ever added; a field removed or changed in meaning is a new version.
const Version = 1

// A Severity grades a finding (surface.Severity).
type Severity = surface.Severity

// The levels, lowest first.
const (
	Info    = surface.Info
	Warning = surface.Warning
	Error   = surface.Error
)

// A Report is everything a check found: per server, what it advertised and
// what the policy did with each row; then the collisions, the findings and
// the lock comparison. It is plain data, the same for every format.
type Report struct {
	Version int `json:"version"`
	// Config names the config: its path, or "demo config".
	Config string `json:"config"`
	// Client is the client profile mcplens connected as (NAME@VERSION),
	// absent when it connected as itself.
	Client string `json:"client,omitempty"`
	// ClientSource says how Client was chosen when --client did not name
	// it: from the config's format.
	ClientSource string `json:"client_source,omitempty"`
	// Clients are the clients compared (check --clients), one entry per
	// handshake: the clients that share it, joined by ", ". The rest of
	// the report is the first one's. Absent without --clients.
	Clients []string `json:"clients,omitempty"`
	// Gated lists the tools some of Clients were advertised and others
	// not; each is also a "gated-tool" finding.
	Gated  []surface.GatedTool `json:"gated,omitempty"`
	Policy string              `json:"policy"`
	// PolicySummary is the policy's rule in a few words.
	PolicySummary string      `json:"policy_summary"`
	Providers     []string    `json:"providers"`
	Summary       Summary     `json:"summary"`
	Servers       []Server    `json:"servers"`
	Collisions    []Collision `json:"collisions"`
	// PromptNaming is how the policy's client names prompts as slash
	// commands, and PromptCollisions the commands several prompts wanted;
	// both absent when no server offers a prompt.
	PromptNaming     string      `json:"prompt_naming,omitempty"`
	PromptCollisions []Collision `json:"prompt_collisions,omitempty"`
	Findings         []Finding   `json:"findings"`
	// Lock is set when the tools were compared with a lock file.
	Lock *Lock `json:"lock,omitempty"`
}

// A Summary counts what the report holds.
type Summary struct {
	Servers    int `json:"servers"`
	Failed     int `json:"failed"`
	Advertised int `json:"advertised"`
	Registered int `json:"registered"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
}

// A Server is one configured server.
type Server struct {
	Label string `json:"label"`
	// Line and Col are where the config file declares the server (1-based;
	// 0 when no file does): where SARIF results are located.
	Line int `json:"-"`
	Col  int `json:"-"`
	// Status is "ok", "incomplete" (a tool it advertised has no route),
	// "failed by policy" (the policy failed it as a whole), "failed" (no
	// connection or listing), "needs
	// login" (a remote server waiting for an OAuth login; Error says how),
	// "connecting" or "closed".
	Status string `json:"status"`
	// Error is why the server failed, or why the policy failed it.
	Error string `json:"error"`
	// Notes are messages that do not fail the server: an unfinished
	// listing, the policy's notes.
	Notes []string `json:"notes"`
	// Stderr is the tail of a failed server's stderr.
	Stderr   string `json:"stderr"`
	Protocol string `json:"protocol"`
	// ProtocolSettled says which revision the connection settled on, how
	// and why ("2026-07-28 via server/discover"); absent for a recording.
	ProtocolSettled string     `json:"protocol_settled,omitempty"`
	ServerInfo      ServerInfo `json:"server_info"`
	// Capabilities are the capabilities the server declared, each with its
	// flags: "tools(listChanged)", "logging".
	Capabilities []string `json:"capabilities"`
	// Instructions are the server's instructions, at most 4 KiB of them
	// (InstructionsCut says more were sent).
	Instructions    string `json:"instructions"`
	InstructionsCut bool   `json:"instructions_cut,omitempty"`
	Advertised      int    `json:"advertised"`
	Registered      int    `json:"registered"`
	// Missing lists advertised wire names left without a route, sorted.
	Missing []string `json:"missing"`
	Tools   []Tool   `json:"tools"`
	// Resources, Templates and Prompts are what the server offers beside
	// its tools (offers.go), absent when it offers none.
	Resources []Resource `json:"resources,omitempty"`
	Templates []Template `json:"resource_templates,omitempty"`
	Prompts   []Prompt   `json:"prompts,omitempty"`
	// Lock is set when the tools were compared with a lock file.
	Lock *ServerLock `json:"lock,omitempty"`
}

// ServerInfo is what the server said it is: for display only, never an
// identity.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Title   string `json:"title,omitempty"`
	Website string `json:"website_url,omitempty"`
}

// A Tool is one advertised row and what the policy did with it.
type Tool struct {
	// Index is the row's position in the server's tools/list.
	Index int `json:"index"`
	// Wire is the wire name; "" for a row without a usable name, whose
	// NameProblem says why.
	Wire        string `json:"wire"`
	NameProblem string `json:"name_problem"`
	// RegisteredAs is the registered name, or for a dropped or displaced
	// row the name it would have had ("" when the policy formed none).
	RegisteredAs string `json:"registered_as"`
	// Outcome is "registered", "renamed", "dropped" or "displaced".
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
	// By is the server that won the name or displaced the row.
	By string `json:"by"`
	// Alias is a policy's legacy alias (qwen), not a registry key.
	Alias string `json:"alias"`
	// Route is where a call to RegisteredAs goes (possibly another
	// server's row); nil when the name is not in the registry.
	Route *Route `json:"route"`
	// Checks has one entry per selected provider, empty when the row has
	// no registered name.
	Checks []Check `json:"checks"`
	// Lock is "unchanged", "changed" or "added" when the tools were
	// compared with a lock file, else "".
	Lock string `json:"lock,omitempty"`
}

// A Route is a registry entry: server label and wire name.
type Route struct {
	Server string `json:"server"`
	Wire   string `json:"wire"`
}

// A Check is one provider's verdict on a registered name.
type Check struct {
	Provider string `json:"provider"`
	// Severity is "pass", "warn" or "fail".
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// A Collision is one registered name claimed by more than one row.
type Collision struct {
	Name  string `json:"name"`
	Class string `json:"class"`
	// Claims are the rows that wanted Name, in processing order.
	Claims []Claim `json:"claims"`
}

// A Claim is one row that wanted a collided name.
type Claim struct {
	Server  string `json:"server"`
	Wire    string `json:"wire"`
	Outcome string `json:"outcome"`
	// Won reports whether this row's route holds the name.
	Won bool `json:"won"`
}

// A Finding is one thing worth a look, with its evidence (surface.Finding).
type Finding = surface.Finding

// A Lock is the outcome of comparing with a lock file.
type Lock struct {
	Path string `json:"path"`
	// Updated reports whether the lock file was rewritten with what this
	// run saw (--update-lock): the changes listed were accepted.
	Updated bool `json:"updated"`
	// Stale lists servers the lock pins that the config no longer has.
	Stale []string `json:"stale"`
}

// A ServerLock is one server compared with its pin.
type ServerLock struct {
	// Status is "unchanged", "changed", "unpinned" (the lock has no entry
	// for the server) or "not-compared" (its tools were never listed).
	Status string `json:"status"`
	// Endpoint is set when the server is now reached another way. Its key
	// is "transport", as reports wrote it before the word meant only the
	// connection kind.
	Endpoint *EndpointChange `json:"transport"`
	Changes  []ToolChange    `json:"changes"`
}

// An EndpointChange is the server label pointing at another server.
type EndpointChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// A ToolChange is one tool added, removed or changed since the lock.
type ToolChange struct {
	Wire string `json:"wire"`
	// Change is "added", "removed" or "changed".
	Change    string        `json:"change"`
	OldSHA256 string        `json:"old_sha256"`
	NewSHA256 string        `json:"new_sha256"`
	Fields    []FieldChange `json:"fields"`
}

// A FieldChange is one field of a tool's definition that changed.
type FieldChange struct {
	// Path names the field: "description", "inputSchema.properties.limit".
	Path string `json:"path"`
	// Op is "added", "removed" or "changed".
	Op string `json:"op"`
	// Old and New are the values as canonical JSON ("" when absent).
	Old string `json:"old"`
	New string `json:"new"`
}

// settled is the server's protocol as a report line says it: the revision,
// how and why it was settled on, when the connection said.
func settled(s Server) string {
	if s.ProtocolSettled != "" {
		return s.ProtocolSettled
	}
	return s.Protocol
}
