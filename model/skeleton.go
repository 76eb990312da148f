package model

import (
	"encoding/json"
	"strings"
)

// skeletonDepth bounds how many levels of nested objects a skeleton fills;
// the next level is written as {}.
const skeletonDepth = 8

// ArgumentSkeleton returns an indented JSON object to start a tool's
// arguments from, built from its input schema: every property in the
// schema's own order, with its default, else its const, else the first enum
// value, else a placeholder of its type ("" string, 0 number and integer,
// false boolean, [] array, null otherwise; an object recursively). A schema
// that is absent, invalid, `true`, or not for an object gives "{}". Strings
// in the result escape control, bidi and invisible characters as \u
// sequences, so the skeleton is terminal-safe and means the same JSON.
func ArgumentSkeleton(schema json.RawMessage) string {
	root, err := readJSON(schema)
	if err != nil || root.kind != jObject {
		return "{}"
	}
	if t := schemaType(root); t != "" && t != "object" {
		return "{}"
	}
	var sb strings.Builder
	writeJSON(&sb, objectSkeleton(root, 1), 0)
	return sb.String()
}

func objectSkeleton(schema *jnode, depth int) *jnode {
	out := &jnode{kind: jObject}
	props := schema.get("properties")
	if depth > skeletonDepth || props == nil || props.kind != jObject {
		return out
	}
	for i, k := range props.keys {
		out.keys = append(out.keys, k)
		out.vals = append(out.vals, placeholder(props.vals[i], depth))
	}
	return out
}

func placeholder(s *jnode, depth int) *jnode {
	if s.kind != jObject {
		return &jnode{kind: jNull}
	}
	for _, k := range []string{"default", "const"} {
		if v := s.get(k); v != nil {
			return v
		}
	}
	if e := s.get("enum"); e != nil && e.kind == jArray && len(e.vals) > 0 {
		return e.vals[0]
	}
	switch schemaType(s) {
	case "string":
		return &jnode{kind: jString}
	case "number", "integer":
		return &jnode{kind: jNumber, text: "0"}
	case "boolean":
		return &jnode{kind: jBool}
	case "array":
		return &jnode{kind: jArray}
	case "object":
		return objectSkeleton(s, depth+1)
	case "":
		if p := s.get("properties"); p != nil && p.kind == jObject {
			return objectSkeleton(s, depth+1)
		}
		if s.get("items") != nil {
			return &jnode{kind: jArray}
		}
		if depth > skeletonDepth {
			break
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			alts := s.get(k)
			if alts == nil || alts.kind != jArray {
				continue
			}
			for _, alt := range alts.vals {
				if alt.kind == jObject && schemaType(alt) != "null" {
					return placeholder(alt, depth+1)
				}
			}
		}
	}
	return &jnode{kind: jNull}
}

// schemaType returns the schema's type keyword: the string, or the first
// non-"null" entry of a list. It is "" when absent or malformed.
func schemaType(s *jnode) string {
	t := s.get("type")
	switch {
	case t == nil:
		return ""
	case t.kind == jString:
		return t.text
	case t.kind == jArray:
		first := ""
		for _, v := range t.vals {
			if v.kind != jString {
				continue
			}
			if v.text != "null" {
				return v.text
			}
			first = v.text
		}
		return first
	}
	return ""
}
