package model

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// skeletonDepth bounds how many levels of nested objects a skeleton fills;
// the next level is written as {}.
const skeletonDepth = 8

// copyDepth bounds the nesting of the schema read into a skeleton: a
// default, const or enum value nested deeper in the schema is written as
// an empty {} or [], so hostile nesting costs no stack.
const copyDepth = 64

// ArgumentSkeleton returns an indented JSON object to start a tool's
// arguments from, built from its input schema: every property in the
// schema's own order, with its default, else its const, else the first enum
// value, else a placeholder of its type ("" string, 0 number and integer,
// false boolean, [] array, null otherwise; an object recursively). A schema
// that is absent, invalid, `true`, or not for an object gives "{}". Strings
// in the result escape control, bidi and invisible characters as \u
// sequences, so the skeleton is terminal-safe and means the same JSON.
func ArgumentSkeleton(schema json.RawMessage) string {
	raw := bytes.TrimSpace(schema)
	if _, err := jsonx.Depth(raw); err != nil {
		return "{}"
	}
	root, ok := jsonx.Fields(raw)
	if !ok {
		return "{}"
	}
	if t := schemaType(root); t != "" && t != "object" {
		return "{}"
	}
	var w skeletonWriter
	w.object(root, 1, 0, 0)
	return w.String()
}

// A skeletonWriter writes a skeleton as indented JSON. Its at arguments are
// how deeply the schema value being read is nested in the schema.
type skeletonWriter struct{ strings.Builder }

// object writes the skeleton of an object schema at skeleton depth depth.
func (w *skeletonWriter) object(schema []jsonx.Field, depth, at, indent int) {
	props, ok := jsonx.Fields(field(schema, "properties"))
	if depth > skeletonDepth || !ok {
		props = nil
	}
	w.list("{", "}", len(props), indent, func(i int) {
		w.quote(props[i].Name)
		w.WriteString(": ")
		w.placeholder(props[i].Value, depth, at+2, indent+1)
	})
}

// placeholder writes the value a property whose schema is raw starts from.
func (w *skeletonWriter) placeholder(raw []byte, depth, at, indent int) {
	s, ok := jsonx.Fields(raw)
	if !ok {
		w.WriteString("null")
		return
	}
	for _, k := range []string{"default", "const"} {
		if v := field(s, k); v != nil {
			w.value(v, at+1, indent)
			return
		}
	}
	if enum, ok := jsonx.Elements(field(s, "enum")); ok && len(enum) > 0 {
		w.value(enum[0], at+2, indent)
		return
	}
	switch schemaType(s) {
	case "string":
		w.WriteString(`""`)
		return
	case "number", "integer":
		w.WriteString("0")
		return
	case "boolean":
		w.WriteString("false")
		return
	case "array":
		w.WriteString("[]")
		return
	case "object":
		w.object(s, depth+1, at, indent)
		return
	case "":
		if _, ok := jsonx.Fields(field(s, "properties")); ok {
			w.object(s, depth+1, at, indent)
			return
		}
		if field(s, "items") != nil {
			w.WriteString("[]")
			return
		}
		if depth > skeletonDepth {
			break
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			alts, _ := jsonx.Elements(field(s, k))
			for _, alt := range alts {
				if a, ok := jsonx.Fields(alt); ok && schemaType(a) != "null" {
					w.placeholder(alt, depth+1, at+2, indent)
					return
				}
			}
		}
	}
	w.WriteString("null")
}

// value writes a JSON value of the schema as it is, but indented, its
// strings escaped as quote does, a repeated key once (with its last value),
// and nesting beyond copyDepth emptied.
func (w *skeletonWriter) value(raw []byte, at, indent int) {
	switch raw = bytes.TrimSpace(raw); raw[0] {
	case '{':
		fields, _ := jsonx.Fields(raw)
		if at >= copyDepth {
			fields = nil
		}
		w.list("{", "}", len(fields), indent, func(i int) {
			w.quote(fields[i].Name)
			w.WriteString(": ")
			w.value(fields[i].Value, at+1, indent+1)
		})
	case '[':
		elems, _ := jsonx.Elements(raw)
		if at >= copyDepth {
			elems = nil
		}
		w.list("[", "]", len(elems), indent, func(i int) {
			w.value(elems[i], at+1, indent+1)
		})
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		w.quote(s)
	default: // a number as written, true, false, null
		w.Write(raw)
	}
}

// list writes n members or elements between open and close, one a line,
// each written by item.
func (w *skeletonWriter) list(open, close string, n, indent int, item func(i int)) {
	w.WriteString(open)
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
		w.WriteString(strings.Repeat("  ", indent+1))
		item(i)
	}
	if n > 0 {
		w.WriteByte('\n')
		w.WriteString(strings.Repeat("  ", indent))
	}
	w.WriteString(close)
}

// QuoteJSON returns s as a JSON string escaped as a skeleton's strings
// are (see quote): the same JSON, safe to show on a terminal.
func QuoteJSON(s string) string {
	var w skeletonWriter
	w.quote(s)
	return w.String()
}

// quote writes s as a JSON string. Besides what JSON requires, it escapes
// every character Sanitize would, as \u sequences.
func (w *skeletonWriter) quote(s string) {
	const hex = "0123456789abcdef"
	w.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			w.WriteByte('\\')
			w.WriteByte(byte(r))
		case r == '\n':
			w.WriteString(`\n`)
		case r == '\r':
			w.WriteString(`\r`)
		case r == '\t':
			w.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			w.WriteString(`\ufffd`)
		case unsafeRune(r):
			units := []rune{r}
			if r > 0xffff { // JSON has no longer escape: a surrogate pair
				hi, lo := utf16.EncodeRune(r)
				units = []rune{hi, lo}
			}
			for _, u := range units {
				w.WriteString(`\u`)
				for shift := 12; shift >= 0; shift -= 4 {
					w.WriteByte(hex[u>>shift&0xf])
				}
			}
		default:
			w.WriteString(s[i : i+size])
		}
		i += size
	}
	w.WriteByte('"')
}

// field returns the value of an object's member, or nil.
func field(obj []jsonx.Field, name string) []byte {
	for _, f := range obj {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// schemaType returns the schema's type keyword: the string, or the first
// non-"null" entry of a list. It is "" when absent or malformed.
func schemaType(s []jsonx.Field) string {
	t := bytes.TrimSpace(field(s, "type"))
	if len(t) == 0 {
		return ""
	}
	var one string
	if t[0] == '"' && json.Unmarshal(t, &one) == nil {
		return one
	}
	list, _ := jsonx.Elements(t)
	first := ""
	for _, v := range list {
		if v[0] != '"' || json.Unmarshal(v, &one) != nil {
			continue
		}
		if one != "null" {
			return one
		}
		first = one
	}
	return first
}
