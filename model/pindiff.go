// Comparing a server with its pin: the lock diff, field by field.

package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// A ChangeKind says what happened to one pinned tool.
type ChangeKind string

const (
	ToolAdded   ChangeKind = "added"   // advertised, not in the lock
	ToolRemoved ChangeKind = "removed" // in the lock, no longer advertised
	ToolChanged ChangeKind = "changed" // advertised with another definition
)

// A PinDiff is how a server's current tools differ from its pin.
type PinDiff struct {
	// Endpoint is set when the server is now reached another way.
	Endpoint *EndpointChange
	// Tools lists the changed tools, sorted by wire name.
	Tools []ToolChange
}

// An EndpointChange is a server label now pointing at another server.
type EndpointChange struct{ Old, New EndpointPin }

// A ToolChange is one tool added, removed or changed.
type ToolChange struct {
	Wire string
	Kind ChangeKind
	// OldSHA256 and NewSHA256 are the definition hashes ("" on the side
	// where the tool does not exist).
	OldSHA256, NewSHA256 string
	// Fields says what changed, for ToolChanged.
	Fields []FieldChange
}

// A FieldChange is one difference between two definitions of a tool.
type FieldChange struct {
	// Path names the field: "description", "inputSchema.properties.limit",
	// "annotations.readOnlyHint". A key that is not a plain word is quoted:
	// `inputSchema.properties["a.b"]`.
	Path string
	// Op is "added", "removed" or "changed". For a list of names (a
	// schema's "required"), each name added or removed is its own change
	// with Path naming the list.
	Op string
	// Old and New are the values in canonical JSON, RFC 8785's ("" when
	// absent).
	Old, New string
}

// String returns the change as one line: `description changed: "a" → "b"`,
// `inputSchema.properties.limit added: {"type":"integer"}`.
func (c FieldChange) String() string {
	switch c.Op {
	case "added":
		return c.Path + " added: " + c.New
	case "removed":
		return c.Path + " removed: " + c.Old
	}
	return c.Path + " changed: " + c.Old + " → " + c.New
}

// Empty reports whether the diff found no difference.
func (d PinDiff) Empty() bool { return d.Endpoint == nil && len(d.Tools) == 0 }

// Tool returns the change to the tool with the wire name, if any.
func (d PinDiff) Tool(wire string) (ToolChange, bool) {
	for _, c := range d.Tools {
		if c.Wire == wire {
			return c, true
		}
	}
	return ToolChange{}, false
}

// Diff compares a server's current pin with its approved one.
func Diff(old, cur ServerPin) PinDiff {
	var d PinDiff
	if !old.Endpoint.Equal(cur.Endpoint) {
		d.Endpoint = &EndpointChange{Old: old.Endpoint, New: cur.Endpoint}
	}
	names := make([]string, 0, len(old.Tools)+len(cur.Tools))
	for n := range old.Tools {
		names = append(names, n)
	}
	for n := range cur.Tools {
		if _, ok := old.Tools[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		o, inOld := old.Tools[n]
		c, inCur := cur.Tools[n]
		switch {
		case !inOld:
			d.Tools = append(d.Tools, ToolChange{Wire: n, Kind: ToolAdded, NewSHA256: c.SHA256})
		case !inCur:
			d.Tools = append(d.Tools, ToolChange{Wire: n, Kind: ToolRemoved, OldSHA256: o.SHA256})
		case o.SHA256 != c.SHA256:
			d.Tools = append(d.Tools, ToolChange{
				Wire: n, Kind: ToolChanged, OldSHA256: o.SHA256, NewSHA256: c.SHA256,
				Fields: diffDefinitions(o.Definition, c.Definition),
			})
		}
	}
	return d
}

// diffDefinitions compares two canonical definitions field by field. When
// the hashes differed but the definitions read the same (a lock whose
// definition was edited by hand), it says so rather than nothing.
func diffDefinitions(old, cur json.RawMessage) []FieldChange {
	o, errO := decodeJSON(old)
	c, errC := decodeJSON(cur)
	if errO != nil || errC != nil {
		return []FieldChange{{Path: "definition", Op: "changed", Old: string(old), New: string(cur)}}
	}
	om, _ := o.(map[string]any)
	cm, _ := c.(map[string]any)
	var out []FieldChange
	for _, f := range pinnedFields {
		ov, inO := om[f]
		cv, inC := cm[f]
		switch {
		case !inO && !inC:
		case !inO:
			out = append(out, FieldChange{Path: f, Op: "added", New: encodeJSON(cv)})
		case !inC:
			out = append(out, FieldChange{Path: f, Op: "removed", Old: encodeJSON(ov)})
		default:
			out = diffValue(out, f, ov, cv)
		}
	}
	if len(out) == 0 {
		out = append(out, FieldChange{Path: "definition", Op: "changed",
			Old: "(the lock's definition does not match its sha256)", New: string(cur)})
	}
	return out
}

// diffValue appends the differences between two JSON values at path:
// objects key by key, sorted; a schema's "required" list name by name;
// anything else as one change.
func diffValue(out []FieldChange, path string, o, c any) []FieldChange {
	oe, ce := encodeJSON(o), encodeJSON(c)
	if oe == ce {
		return out
	}
	om, okO := o.(map[string]any)
	cm, okC := c.(map[string]any)
	if okO && okC {
		keys := make([]string, 0, len(om)+len(cm))
		for k := range om {
			keys = append(keys, k)
		}
		for k := range cm {
			if _, ok := om[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := joinPath(path, k)
			ov, inO := om[k]
			cv, inC := cm[k]
			switch {
			case !inO:
				out = append(out, FieldChange{Path: p, Op: "added", New: encodeJSON(cv)})
			case !inC:
				out = append(out, FieldChange{Path: p, Op: "removed", Old: encodeJSON(ov)})
			default:
				out = diffValue(out, p, ov, cv)
			}
		}
		return out
	}
	if strings.HasSuffix(path, ".required") {
		if was, ok := stringList(o); ok {
			if now, ok := stringList(c); ok {
				for _, s := range was {
					if !slices.Contains(now, s) {
						out = append(out, FieldChange{Path: path, Op: "removed", Old: encodeJSON(s)})
					}
				}
				for _, s := range now {
					if !slices.Contains(was, s) {
						out = append(out, FieldChange{Path: path, Op: "added", New: encodeJSON(s)})
					}
				}
				if sameSet(was, now) {
					// Only the order differs.
					out = append(out, FieldChange{Path: path, Op: "changed", Old: oe, New: ce})
				}
				return out
			}
		}
	}
	return append(out, FieldChange{Path: path, Op: "changed", Old: oe, New: ce})
}

func sameSet(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			return false
		}
	}
	return true
}

// stringList returns v as a list of strings, if it is one.
func stringList(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// joinPath appends key to path, quoting a key that is not a plain word.
func joinPath(path, key string) string {
	plain := key != ""
	for _, r := range key {
		if !isOpenAIChar(r) && r != '$' {
			plain = false
			break
		}
	}
	if plain {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

// decodeJSON decodes one JSON value, keeping numbers as written.
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

// encodeJSON writes a decoded value in the canonical form definitions are
// pinned in (jsonx.Canonical), as FieldChange values read.
func encodeJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if b, err = jsonx.Canonical(b); err != nil {
		return ""
	}
	return string(b)
}
