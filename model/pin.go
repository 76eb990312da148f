package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// Pinning records the tool definitions a reviewer approved, so that a later
// run notices when a server changes one: the approved-then-changed "rug
// pull" shape. A Lock holds, per server label, a fingerprint of how the
// server is reached and, per wire name, a SHA-256 of the tool's canonical
// definition together with that definition, so a change can be reported
// field by field (which description changed, which parameter was added)
// and reviewed in a diff of the lock file itself.
//
// A lock is meant to be committed, so it never holds a command line or a
// URL as written: tokens travel in arguments and URLs. It holds a hash of
// them (a rotated token changes it) and a redacted form to read in a diff.

// pinnedFields are the fields of a tools/list row that make up a tool's
// definition, in the order changes to them are reported.
var pinnedFields = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"}

// A ServerPin is one server's approved tools and how it was reached.
type ServerPin struct {
	// Endpoint is written "endpoint"; locks before version 3 wrote it
	// "transport".
	Endpoint EndpointPin `json:"endpoint"`
	// Tools is keyed by wire name.
	Tools map[string]ToolPin `json:"tools"`
}

// An Endpoint is where a server is reached, its identity: its command and
// arguments, or its URL, as the client runs them (variables expanded,
// secrets in clear), whatever the transport (stdio, streamable HTTP, SSE)
// that carries the session. It is never the server's self-reported name,
// which any server can choose, and it is never written as it is: a lock
// records its EndpointPin.
type Endpoint struct {
	Command string
	Args    []string
	URL     string
	// Shown is the endpoint as one line with its secrets masked, from a
	// redaction that knows the config (config.ServerSpec.Redacted); ""
	// means String redacts it by shape alone.
	Shown string
}

// String returns the endpoint as one line with its secrets masked: Shown,
// or else the URL, or the command and its arguments, each quoted when it
// needs to be, through RedactURL and RedactArgs.
func (e Endpoint) String() string {
	if e.Shown != "" {
		return e.Shown
	}
	if e.URL != "" {
		return RedactURL(e.URL)
	}
	return CommandLine(RedactArgs([]string{e.Command})[0], RedactArgs(e.Args))
}

// CommandLine joins a command and its arguments into one line, quoting the
// words that need it. It masks nothing: give it redacted words.
func CommandLine(command string, args []string) string {
	parts := []string{shellWord(command)}
	for _, a := range args {
		parts = append(parts, shellWord(a))
	}
	return strings.Join(parts, " ")
}

// Fingerprint returns "sha256:" and the hex SHA-256 of the endpoint's
// command, arguments and URL as the client runs them. Two endpoints with
// the same fingerprint reach the same server the same way; a changed
// argument or token changes it, and the values cannot be read back from it.
func (e Endpoint) Fingerprint() string {
	b, err := json.Marshal(struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		URL     string   `json:"url"`
	}{e.Command, e.Args, e.URL})
	if err != nil {
		return "" // strings always marshal
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Pin returns what a lock records of the endpoint: its fingerprint and its
// redacted form.
func (e Endpoint) Pin() EndpointPin {
	return EndpointPin{Fingerprint: e.Fingerprint(), Redacted: e.String()}
}

// An EndpointPin is what a lock records of how a server is reached: a
// fingerprint that tells whether the server is still reached the same way,
// and the endpoint with its secrets masked, for people reading the lock.
type EndpointPin struct {
	// Fingerprint is Endpoint.Fingerprint; "" for a pin read from a
	// version 1 lock, which is not compared.
	Fingerprint string `json:"fingerprint"`
	// Redacted is Endpoint.String: for reading only, never compared.
	Redacted string `json:"redacted"`
}

// String returns the redacted endpoint.
func (p EndpointPin) String() string { return p.Redacted }

// Equal reports whether p and q identify the same server: their
// fingerprints are the same, or one of them was never recorded.
func (p EndpointPin) Equal(q EndpointPin) bool {
	return p.Fingerprint == "" || q.Fingerprint == "" || p.Fingerprint == q.Fingerprint
}

func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\$`") {
		return s
	}
	return strconv.Quote(s)
}

// A ToolPin is one approved tool definition.
type ToolPin struct {
	// SHA256 is the hex SHA-256 of Definition in canonical form.
	SHA256 string `json:"sha256"`
	// Definition is the tool's canonical definition: the pinned fields of
	// its row that were present, in the canonical form of RFC 8785.
	Definition json.RawMessage `json:"definition"`
}

// CanonicalDefinition returns the canonical form of a tools/list row's
// definition: an object of the row's name, title, description, inputSchema,
// outputSchema and annotations (those present; other fields are not part of
// the definition) in the JSON Canonicalization Scheme of RFC 8785 (see
// jsonx.Canonical): every object's keys sorted, no insignificant
// whitespace, strings escaped only where JSON requires, numbers as
// ECMAScript writes them. It fails when the row is not a JSON object.
func CanonicalDefinition(row json.RawMessage) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(row, &fields); err != nil || fields == nil {
		return nil, errors.New("row is not a JSON object")
	}
	def := make(map[string]json.RawMessage)
	for _, f := range pinnedFields {
		if v, ok := fields[f]; ok {
			def[f] = v
		}
	}
	b, err := json.Marshal(def)
	if err != nil {
		return nil, err
	}
	return jsonx.Canonical(b)
}

// PinTool returns the pin of one advertised row.
func PinTool(t Tool) (ToolPin, error) {
	def, err := CanonicalDefinition(t.Raw)
	if err != nil {
		return ToolPin{}, err
	}
	sum := sha256.Sum256(def)
	return ToolPin{SHA256: hex.EncodeToString(sum[:]), Definition: def}, nil
}

// Pin returns the pin of a server reached at endpoint that advertised
// tools. Rows without a usable name cannot be addressed and are left out; a
// wire name listed more than once is pinned as first listed, the row a
// call under that name reaches.
func Pin(endpoint Endpoint, tools []Tool) ServerPin {
	sp := ServerPin{Endpoint: endpoint.Pin(), Tools: make(map[string]ToolPin)}
	for _, t := range tools {
		if !t.usable() {
			continue
		}
		if _, dup := sp.Tools[t.Name]; dup {
			continue
		}
		if p, err := PinTool(t); err == nil {
			sp.Tools[t.Name] = p
		}
	}
	return sp
}
