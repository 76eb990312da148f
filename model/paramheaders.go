package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// Protocol revision 2026-07-28 lets a server mark tool parameters with an
// x-mcp-header annotation, whose value a client over streamable HTTP
// mirrors into an Mcp-Param-{name} header of each tools/call; a client
// there rejects (leaves out of its tools/list) a tool whose annotations
// break the rules of the specification's "Custom Headers from Tool
// Parameters": a name that is a non-empty HTTP token, unique ignoring
// case, on a string, integer or boolean parameter reached from the root
// through properties alone. ParamHeaders is that rule; the loader marks a
// rejected row (Tool.Rejected) and mirrors the headers of a valid one.

// XMCPHeader is the annotation's keyword.
const XMCPHeader = "x-mcp-header"

// A ParamHeader is one x-mcp-header annotation: the header Mcp-Param-Name
// carries the call argument at Path (a chain of property names from the
// arguments' root).
type ParamHeader struct {
	Path []string
	Name string
}

// maxHeaderDepth bounds how deeply ParamHeaders walks a schema; an
// annotation deeper than that is refused rather than left unchecked.
const maxHeaderDepth = 64

// notReachable are the keywords whose subschemas the chain of properties
// must not pass through: an annotation under any of them is invalid.
// Those whose value is an object of subschemas are true, those whose value
// is a subschema or an array of them false.
var notReachable = map[string]bool{
	"items": false, "prefixItems": false, "additionalItems": false, "contains": false,
	"additionalProperties": false, "unevaluatedProperties": false, "unevaluatedItems": false,
	"propertyNames": false, "oneOf": false, "anyOf": false, "allOf": false, "not": false,
	"if": false, "then": false, "else": false,
	"patternProperties": true, "dependentSchemas": true, "dependencies": true,
	"$defs": true, "definitions": true,
}

// ParamHeaders returns the x-mcp-header annotations of a tool's input
// schema in document order, or the first rule one breaks, in the words a
// client rejecting the tool would log. A schema with no annotation has
// none and breaks nothing; so does one that is not an object.
func ParamHeaders(schema json.RawMessage) ([]ParamHeader, error) {
	if !bytes.Contains(schema, []byte(XMCPHeader)) && !bytes.Contains(schema, []byte(`\u`)) {
		return nil, nil // no annotation can be in it, even escaped
	}
	w := headerWalk{seen: map[string]string{}}
	if err := w.visit(schema, nil, true, 0); err != nil {
		return nil, err
	}
	return w.found, nil
}

type headerWalk struct {
	found []ParamHeader
	seen  map[string]string // lower-case name → the name as first declared
}

func (w *headerWalk) visit(node []byte, path []string, reachable bool, depth int) error {
	fields, ok := jsonx.Fields(node)
	if !ok {
		return nil // true, false, or not a schema
	}
	if depth > maxHeaderDepth {
		if bytes.Contains(node, []byte(XMCPHeader)) || bytes.Contains(node, []byte(`\u`)) {
			return fmt.Errorf("%s: the schema nests deeper than %d levels, where its x-mcp-header annotations are not checked", pathName(path), maxHeaderDepth)
		}
		return nil
	}
	for _, f := range fields {
		if f.Name == XMCPHeader {
			if err := w.annotation(fields, f.Value, path, reachable); err != nil {
				return err
			}
		}
	}
	for _, f := range fields {
		switch objectOf, listed := notReachable[f.Name]; {
		case f.Name == "properties":
			props, _ := jsonx.Fields(f.Value)
			for _, p := range props {
				if err := w.visit(p.Value, append(path[:len(path):len(path)], p.Name), reachable, depth+1); err != nil {
					return err
				}
			}
		case listed:
			if err := w.under(f, objectOf, path, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// under visits the subschemas of keyword f, none of them reachable.
func (w *headerWalk) under(f jsonx.Field, objectOf bool, path []string, depth int) error {
	var subs [][]byte
	if elems, ok := jsonx.Elements(f.Value); ok {
		for _, e := range elems {
			subs = append(subs, e)
		}
	} else if objectOf {
		members, _ := jsonx.Fields(f.Value)
		for _, m := range members {
			subs = append(subs, m.Value)
		}
	} else {
		subs = [][]byte{f.Value}
	}
	at := append(path[:len(path):len(path)], "<"+f.Name+">")
	for _, s := range subs {
		if err := w.visit(s, at, false, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// annotation checks the x-mcp-header of the schema whose members are
// fields, at path.
func (w *headerWalk) annotation(fields []jsonx.Field, value []byte, path []string, reachable bool) error {
	where := pathName(path)
	if !reachable || len(path) == 0 {
		return fmt.Errorf("%s: x-mcp-header is allowed only on a property reached from the root through properties alone (not under items, additionalProperties, oneOf, anyOf, allOf, not, if/then/else, $defs or $ref)", where)
	}
	if v := bytes.TrimSpace(value); len(v) == 0 || v[0] != '"' {
		return fmt.Errorf("%s: x-mcp-header must be a string, not %s", where, jsonKind(v))
	}
	name := jsonx.String(value)
	if name == "" {
		return fmt.Errorf("%s: x-mcp-header is empty", where)
	}
	for _, r := range name {
		if !isTChar(r) {
			return fmt.Errorf("%s: x-mcp-header %q holds %q, which an HTTP header name cannot", where, name, r)
		}
	}
	var typ []byte
	for _, f := range fields {
		if f.Name == "type" {
			typ = f.Value
		}
	}
	if !headerPrimitive(typ) {
		return fmt.Errorf("%s: x-mcp-header %q is on a parameter of type %s; only string, integer and boolean parameters may carry one", where, name, typeWords(typ))
	}
	lower := strings.ToLower(name)
	if first, dup := w.seen[lower]; dup {
		return fmt.Errorf("%s: x-mcp-header %q repeats %q (header names ignore case)", where, name, first)
	}
	w.seen[lower] = name
	w.found = append(w.found, ParamHeader{Path: path, Name: name})
	return nil
}

// headerPrimitive reports whether the type keyword declares only types an
// x-mcp-header parameter may have: string, integer, boolean (a number is
// not one, nor is a parameter of no declared type).
func headerPrimitive(typ []byte) bool {
	names := []string{jsonx.String(typ)}
	if elems, ok := jsonx.Elements(typ); ok {
		names = names[:0]
		for _, e := range elems {
			names = append(names, jsonx.String(e))
		}
	}
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if n != "string" && n != "integer" && n != "boolean" {
			return false
		}
	}
	return true
}

func typeWords(typ []byte) string {
	if len(typ) == 0 {
		return "none declared"
	}
	return Sanitize(string(bytes.TrimSpace(typ)))
}

// isTChar reports whether r may be in an HTTP field name (RFC 9110 tchar).
func isTChar(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

func pathName(path []string) string {
	if len(path) == 0 {
		return "the schema's root"
	}
	return "property " + strings.Join(path, ".")
}

func jsonKind(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// MirrorsIntoHeaders reports whether a client speaking protocol mirrors
// its requests into HTTP headers (Mcp-Method, Mcp-Name, Mcp-Param-*) and,
// over streamable HTTP, rejects tools whose x-mcp-header annotations are
// invalid: from 2026-07-28, the revision that defines them (revisions are
// dates, and sort). Over stdio and SSE a client may ignore the
// annotations, and the reference SDKs do.
func MirrorsIntoHeaders(protocol string) bool { return Stateless(protocol) }

// MarkRejected marks each row of a server a client over streamable HTTP at
// protocol rejects for its x-mcp-header annotations (Tool.Rejected), so
// that every view shows it as not registered, and why; at an older
// revision it clears the marks.
func MarkRejected(tools []Tool, protocol string) {
	for i := range tools {
		t := &tools[i]
		t.Rejected = ""
		if !MirrorsIntoHeaders(protocol) {
			continue
		}
		if _, err := ParamHeaders(t.InputSchema); err != nil {
			t.Rejected = "rejected for its x-mcp-header: " + err.Error()
		}
	}
}
