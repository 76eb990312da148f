package audit

import "slices"

// A Level is how bad a finding is: an Error breaks a MUST of the
// specification (or of JSON-RPC 2.0), a Warning a SHOULD.
type Level int

const (
	Warning Level = iota + 1
	Error
)

func (l Level) String() string {
	if l == Error {
		return "error"
	}
	return "warning"
}

// ParseLevel reads "error" or "warning".
func ParseLevel(s string) (Level, bool) {
	switch s {
	case "error":
		return Error, true
	case "warning":
		return Warning, true
	}
	return 0, false
}

// A Check is one rule of the specification the audit probes.
type Check struct {
	// ID is stable across releases: reports, SARIF rules and CI filters
	// name it.
	ID    string
	Level Level
	// Section is where the specification says it (revision-independent
	// path under modelcontextprotocol.io/specification/).
	Section string
	// Probes says what the audit sends or reads to judge it.
	Probes string
	// Transport is "stdio" or "http" for a check of one transport only,
	// "" for both.
	Transport string
}

// checks is the one table of checks, in the order reports list them.
var checks = []Check{
	{"lifecycle.initialize", Error, "basic/lifecycle#initialization", "initialize is answered with protocolVersion, capabilities and serverInfo; on a stateless revision server/discover, which stands for it, with a capabilities object", ""},
	{"lifecycle.version", Error, "basic/lifecycle#version-negotiation", "the revision answered is the one asked for or one the server supports instead, never an unknown one", ""},
	{"lifecycle.unknown-version", Error, "basic/lifecycle#version-negotiation", "an initialize asking for an unknown revision (1999-01-01) is answered with a revision the server supports, or refused", ""},
	{"lifecycle.ping", Error, "basic/utilities/ping", "ping is answered promptly with an empty result", ""},
	{"lifecycle.capabilities", Error, "basic/lifecycle#capability-negotiation", "each declared capability (tools, resources, prompts, logging, completions) answers its list or request, and the list of one not declared (tools, resources, prompts) lists nothing", ""},
	{"jsonrpc.unknown-method", Error, "basic#responses", "an unknown method is answered with error -32601 (method not found); over HTTP on a stateless revision, with HTTP 404 and its id", ""},
	{"jsonrpc.invalid-params", Warning, "basic#responses", "a request missing a required parameter is answered with error -32602 (invalid params)", ""},
	{"jsonrpc.parse-error", Warning, "basic#responses", "malformed JSON is answered with error -32700 and a null id (JSON-RPC 2.0 §5)", ""},
	{"jsonrpc.id-echo", Error, "basic#requests", "a response carries its request's id exactly: a string id as that string, a number as that number", ""},
	{"jsonrpc.notification-answered", Error, "basic#notifications", "a notification (a message without id) gets no response", ""},
	{"jsonrpc.message", Error, "basic#json-rpc-messages", "every message from the server is a well-formed JSON-RPC 2.0 request, notification or response to a pending request", ""},
	{"lifecycle.notifications", Warning, "server/tools#list-changed-notification", "the server's notifications are well-formed: list_changed only for a capability declared with listChanged, log messages of a known level with data, and on a stateless revision only for a request whose _meta asks for them (io.modelcontextprotocol/logLevel; the audit's never do)", ""},
	{"stdio.stdout-noise", Error, "basic/transports#stdio", "stdout carries nothing but JSON-RPC messages, one per line (logs go to stderr)", "stdio"},
	{"stdio.stdin-close", Warning, "basic/lifecycle#stdio", "the server exits once its stdin is closed, within a grace", "stdio"},
	{"listing.cursor-loop", Error, "server/utilities/pagination", "following nextCursor never returns to a cursor already given", ""},
	{"listing.duplicate", Error, "server/utilities/pagination", "no item is listed twice across the pages of one listing", ""},
	{"listing.last-cursor", Warning, "server/utilities/pagination", "nextCursor, when given, is a non-empty string: the last page omits it", ""},
	{"listing.empty-page", Warning, "server/utilities/pagination", "a page with a nextCursor has items: an empty page that points on is an endless listing's shape", ""},
	{"tools.name", Warning, "server/tools#tool-names", "tool names are 1 to 128 characters of A-Z a-z 0-9 _ - .", ""},
	{"tools.input-schema", Error, "server/tools#tool", "inputSchema is a JSON Schema (2020-12 unless $schema says otherwise) of type object", ""},
	{"tools.output-schema", Error, "server/tools#output-schema", "outputSchema, when given, is a JSON Schema of type object", ""},
	{"tools.annotations", Warning, "server/tools#tool", "title is a string; annotations hold a string title and boolean hints", ""},
	{"tools.task-support", Error, "basic/utilities/tasks", "execution.taskSupport is forbidden, optional or required, and not forbidden only when the server declares tasks for tools/call", ""},
	{"tools.mcp-header", Error, "basic/transports#streamable-http", "an x-mcp-header annotation in an input schema names a valid HTTP header for a property of primitive type", ""},
	{"resources.uri", Error, "server/resources#resource", "each listed resource has a name and an absolute URI", ""},
	{"resources.template", Error, "server/resources#resource-templates", "each resource template has a name and a valid RFC 6570 uriTemplate", ""},
	{"resources.ui", Warning, "MCP Apps (io.modelcontextprotocol/ui)", "a ui:// resource is served as text/html;profile=mcp-app", ""},
	{"resources.not-found", Warning, "server/resources#error-handling", "reading a resource that does not exist is answered with error -32002 (resource not found; -32602 from 2026-07-28)", ""},
	{"resources.read", Error, "server/resources#reading-resources", "each listed static resource reads, with contents of its uri carrying text or blob", ""},
	{"prompts.arguments", Error, "server/prompts#prompt", "each prompt has a name and its arguments a name and a boolean required", ""},
	{"prompts.unknown", Warning, "server/prompts#error-handling", "getting a prompt that does not exist is answered with error -32602 (invalid params)", ""},
	{"prompts.get", Error, "server/prompts#getting-a-prompt", "each prompt without required arguments is got, with messages of a role and content", ""},
	{"completion.complete", Error, "server/utilities/completion", "completion/complete answers each template variable and prompt argument with at most 100 string values", ""},
	{"logging.set-level", Error, "server/utilities/logging", "logging/setLevel is answered with an empty result where logging is declared", ""},
	{"logging.invalid-level", Warning, "server/utilities/logging#error-handling", "logging/setLevel with a level that does not exist is answered with error -32602", ""},
	{"tools.call", Error, "server/tools#calling-tools", "each tool named with --call answers a result with content, a boolean isError, and structuredContent valid against its outputSchema where it has one", ""},
	{"http.origin", Error, "basic/transports#security-warning", "a request with a foreign Origin is refused (DNS rebinding)", "http"},
	{"http.host", Warning, "basic/transports#security-warning", "a request to a loopback server with a foreign Host is refused (DNS rebinding)", "http"},
	{"http.session-id", Error, "basic/transports#session-management", "an Mcp-Session-Id, when issued, is visible ASCII", "http"},
	{"http.session-unknown", Warning, "basic/transports#session-management", "a request with an Mcp-Session-Id the server never issued is answered 404, as for an ended session", "http"},
	{"http.session-missing", Warning, "basic/transports#session-management", "a request without the issued Mcp-Session-Id is answered 400", "http"},
	{"http.delete", Error, "basic/transports#session-management", "after DELETE ends a session (2xx), a request with its id is answered 404", "http"},
	{"http.delete-status", Warning, "basic/transports#session-management", "DELETE with the session id is answered 2xx (ended) or 405 (the server does not let clients end sessions)", "http"},
	{"http.accept", Warning, "basic/transports#sending-messages-to-the-server", "a POST whose Accept lacks application/json and text/event-stream is refused (406), and a good one answered as JSON or an event stream", "http"},
	{"http.get", Error, "basic/transports#listening-for-messages-from-the-server", "GET with Accept: text/event-stream is answered with an event stream or 405", "http"},
	{"http.multiple-streams", Error, "basic/transports#multiple-connections", "with the GET stream open where the server serves one, three requests POSTed at once are each answered 2xx with their own response, and no stream carries another's (a message goes on one stream only)", "http"},
	{"http.protocol-version", Error, "basic/transports#protocol-version-header", "a request with an unsupported MCP-Protocol-Version header is answered 400", "http"},
	{"http.notification", Error, "basic/transports#sending-messages-to-the-server", "a notification POSTed is answered 202 Accepted with no body", "http"},
	{"http.mcp-method", Error, "basic/transports#standard-headers (2026-07-28)", "on a stateless revision, a request whose Mcp-Method or Mcp-Name header does not match its body is answered 400", "http"},
	{"stateless.meta-required", Error, "basic#_meta (2026-07-28)", "on a stateless revision, a request whose _meta is missing, or lacks io.modelcontextprotocol/protocolVersion or io.modelcontextprotocol/clientCapabilities, is answered HTTP 400 with error -32602 and its id; one whose _meta lacks only clientInfo (optional) is served", "http"},
	{"stateless.removed-methods", Error, "basic/transports#protocol-version-header (2026-07-28)", "on a stateless revision, the methods it removed (initialize, ping, logging/setLevel, resources/subscribe, resources/unsubscribe), sent with its _meta and headers, are answered HTTP 404 with error -32601 and their ids", "http"},
	{"stateless.unsupported-version", Error, "basic/versioning#protocol-version-negotiation (2026-07-28)", "on a stateless revision, a request whose _meta (and MCP-Protocol-Version header) asks for a revision the server does not support (2099-01-01) is answered with error -32022 whose data lists supported versions, each among server/discover's, and echoes the requested one, over HTTP with status 400", ""},
	{"lifecycle.server-info", Warning, "basic#_meta (2026-07-28)", "on a stateless revision, the server/discover result names the server in its _meta (io.modelcontextprotocol/serverInfo, with a string name and version)", ""},
	{"caching.hints", Error, "server/utilities/caching (2026-07-28)", "list results, resources/read and server/discover carry ttlMs (an integer, 0 or more) and cacheScope (public or private): required on a stateless revision, well-formed wherever given", ""},
	{"http.resume", Warning, "basic/transports#resumability-and-redelivery", "where events carry ids, GET with Last-Event-ID is answered with a stream or 405, never a server error", "http"},
}

// Checks returns every check, in report order.
func Checks() []Check { return slices.Clone(checks) }

// CheckNamed returns the check of id.
func CheckNamed(id string) (Check, bool) {
	i := slices.IndexFunc(checks, func(c Check) bool { return c.ID == id })
	if i < 0 {
		return Check{}, false
	}
	return checks[i], true
}
