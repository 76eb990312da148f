package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
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

// LockVersion is the version of the lock file format this package writes.
// Version 1 locks, which held each server's command, arguments and URL as
// written, are still read (see ParseLock).
const LockVersion = 2

// pinnedFields are the fields of a tools/list row that make up a tool's
// definition, in the order changes to them are reported.
var pinnedFields = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"}

// A Lock is the approved tool definitions of the servers of one config.
type Lock struct {
	// Version is the version the lock was read as; Marshal writes
	// LockVersion.
	Version int `json:"version"`
	// Servers is keyed by server label.
	Servers map[string]ServerPin `json:"servers"`
}

// A ServerPin is one server's approved tools and how it was reached.
type ServerPin struct {
	Transport TransportPin `json:"transport"`
	// Tools is keyed by wire name.
	Tools map[string]ToolPin `json:"tools"`
}

// A Transport is how a server is reached: its command and arguments, or its
// URL, as the client runs them (variables expanded, secrets in clear). It
// is never the server's self-reported name, which any server can choose,
// and it is never written as it is: a lock records its TransportPin.
type Transport struct {
	Command string
	Args    []string
	URL     string
	// Shown is the transport as one line with its secrets masked, from a
	// redaction that knows the config (config.ServerSpec.Redacted); ""
	// means String redacts it by shape alone.
	Shown string
}

// String returns the transport as one line with its secrets masked: Shown,
// or else the URL, or the command and its arguments, each quoted when it
// needs to be, through RedactURL and RedactArgs.
func (t Transport) String() string {
	if t.Shown != "" {
		return t.Shown
	}
	if t.URL != "" {
		return RedactURL(t.URL)
	}
	return CommandLine(RedactArgs([]string{t.Command})[0], RedactArgs(t.Args))
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

// Fingerprint returns "sha256:" and the hex SHA-256 of the transport's
// command, arguments and URL as the client runs them. Two transports with
// the same fingerprint reach the same server the same way; a changed
// argument or token changes it, and the values cannot be read back from it.
func (t Transport) Fingerprint() string {
	b, err := json.Marshal(struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		URL     string   `json:"url"`
	}{t.Command, t.Args, t.URL})
	if err != nil {
		return "" // strings always marshal
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Pin returns what a lock records of the transport: its fingerprint and its
// redacted form.
func (t Transport) Pin() TransportPin {
	return TransportPin{Fingerprint: t.Fingerprint(), Redacted: t.String()}
}

// A TransportPin is what a lock records of how a server is reached: a
// fingerprint that tells whether the server is still reached the same way,
// and the transport with its secrets masked, for people reading the lock.
type TransportPin struct {
	// Fingerprint is Transport.Fingerprint; "" for a pin read from a
	// version 1 lock, which is not compared.
	Fingerprint string `json:"fingerprint"`
	// Redacted is Transport.String: for reading only, never compared.
	Redacted string `json:"redacted"`
}

// String returns the redacted transport.
func (t TransportPin) String() string { return t.Redacted }

// Equal reports whether t and u identify the same server: their
// fingerprints are the same, or one of them was never recorded.
func (t TransportPin) Equal(u TransportPin) bool {
	return t.Fingerprint == "" || u.Fingerprint == "" || t.Fingerprint == u.Fingerprint
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
	// its row that were present, object keys sorted, no insignificant
	// whitespace.
	Definition json.RawMessage `json:"definition"`
}

// CanonicalDefinition returns the canonical form of a tools/list row's
// definition: an object of the row's name, title, description, inputSchema,
// outputSchema and annotations (those present; other fields are not part of
// the definition), every object's keys sorted, no insignificant whitespace,
// strings escaped only where JSON requires, numbers as written. It fails
// when the row is not a JSON object.
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
	return canonicalJSON(b)
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

// Pin returns the pin of a server reached through transport that advertised
// tools. Rows without a usable name cannot be addressed and are left out; a
// wire name listed more than once is pinned as first listed, the row a
// call under that name reaches.
func Pin(transport Transport, tools []Tool) ServerPin {
	sp := ServerPin{Transport: transport.Pin(), Tools: make(map[string]ToolPin)}
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

// NewLock returns an empty lock of the current version.
func NewLock() *Lock {
	return &Lock{Version: LockVersion, Servers: make(map[string]ServerPin)}
}

// ParseLock reads a lock file of the current version or of version 1. A
// version 1 lock held each server's command, arguments and URL as written;
// its pins are read with the transport redacted and no fingerprint (so the
// transport is not compared), and Version says 1 until the lock is
// written again (Outdated).
func ParseLock(data []byte) (*Lock, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("reading lock: %w", err)
	}
	var l *Lock
	switch head.Version {
	case LockVersion:
		l = new(Lock)
		if err := json.Unmarshal(data, l); err != nil {
			return nil, fmt.Errorf("reading lock: %w", err)
		}
	case 1:
		var err error
		if l, err = parseLockV1(data); err != nil {
			return nil, fmt.Errorf("reading lock: %w", err)
		}
	default:
		return nil, fmt.Errorf("reading lock: version %d, want %d (or 1, which is read and rewritten as %d)", head.Version, LockVersion, LockVersion)
	}
	if l.Servers == nil {
		return nil, errors.New(`reading lock: no "servers" object`)
	}
	for label, sp := range l.Servers {
		for wire, tp := range sp.Tools {
			if len(tp.SHA256) != sha256.Size*2 {
				return nil, fmt.Errorf("reading lock: server %q, tool %q: sha256 is %q, want 64 hex digits", label, wire, tp.SHA256)
			}
			if _, err := hex.DecodeString(tp.SHA256); err != nil {
				return nil, fmt.Errorf("reading lock: server %q, tool %q: sha256 is %q, want 64 hex digits", label, wire, tp.SHA256)
			}
		}
	}
	return l, nil
}

// parseLockV1 reads a version 1 lock, whose transports were written as
// they were run.
func parseLockV1(data []byte) (*Lock, error) {
	var v1 struct {
		Version int `json:"version"`
		Servers map[string]struct {
			Transport struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
				URL     string   `json:"url"`
			} `json:"transport"`
			Tools map[string]ToolPin `json:"tools"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(data, &v1); err != nil {
		return nil, err
	}
	l := &Lock{Version: v1.Version}
	if v1.Servers == nil {
		return l, nil
	}
	l.Servers = make(map[string]ServerPin, len(v1.Servers))
	for label, sp := range v1.Servers {
		tr := Transport{Command: sp.Transport.Command, Args: sp.Transport.Args, URL: sp.Transport.URL}
		l.Servers[label] = ServerPin{Transport: TransportPin{Redacted: tr.String()}, Tools: sp.Tools}
	}
	return l, nil
}

// Outdated reports whether the lock was read from an older version of the
// format, which may hold secrets in clear: it is to be rewritten.
func (l *Lock) Outdated() bool { return l.Version < LockVersion }

// Marshal returns the lock as a file of the current version: indented JSON
// with every object's keys sorted, ending in a newline, so that an update
// reads well in a diff.
func (l *Lock) Marshal() ([]byte, error) {
	cur := *l
	cur.Version = LockVersion
	b, err := json.Marshal(&cur)
	if err != nil {
		return nil, err
	}
	c, err := canonicalJSON(b)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, c, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// canonicalJSON rewrites a JSON document with every object's keys sorted,
// no insignificant whitespace, numbers as written, and no HTML escaping.
func canonicalJSON(b []byte) ([]byte, error) {
	v, err := decodeJSON(b)
	if err != nil {
		return nil, err
	}
	return []byte(encodeJSON(v)), nil
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

// encodeJSON writes a decoded value canonically: encoding/json sorts map
// keys and writes json.Number as its literal.
func encodeJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
