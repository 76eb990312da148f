package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON reader and writer that keep object keys in document order,
// which encoding/json's maps do not: a skeleton must list a schema's
// properties in the order its author wrote them.

// readDepth bounds the JSON nesting kept when reading. Deeper values are
// skipped without recursion, so hostile nesting costs time linear in its
// size and no stack.
const readDepth = 64

// A jnode is a JSON value that keeps its object keys in document order,
// which encoding/json's maps do not.
type jnode struct {
	kind jkind
	text string // string value, number literal, or for jDeep the open delimiter
	b    bool
	keys []string
	vals []*jnode
}

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
	jDeep // nested deeper than readDepth: kept as an empty {} or []
)

// get returns the value of an object's key, or nil.
func (n *jnode) get(key string) *jnode {
	if n.kind != jObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

func readJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return n, nil
}

var errJSON = errors.New("malformed JSON")

func readValue(dec *json.Decoder, depth int) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case nil:
		return &jnode{kind: jNull}, nil
	case bool:
		return &jnode{kind: jBool, b: v}, nil
	case json.Number:
		return &jnode{kind: jNumber, text: v.String()}, nil
	case string:
		return &jnode{kind: jString, text: v}, nil
	case json.Delim:
		if v != '{' && v != '[' {
			return nil, errJSON
		}
		if depth >= readDepth {
			return &jnode{kind: jDeep, text: string(v)}, skipNested(dec)
		}
		if v == '[' {
			return readArray(dec, depth)
		}
		return readObject(dec, depth)
	}
	return nil, errJSON
}

func readArray(dec *json.Decoder, depth int) (*jnode, error) {
	n := &jnode{kind: jArray}
	for dec.More() {
		v, err := readValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	_, err := dec.Token() // ']'
	return n, err
}

// readObject keeps the first position of a repeated key and, as JSON
// decoders do, its last value.
func readObject(dec *json.Decoder, depth int) (*jnode, error) {
	n := &jnode{kind: jObject}
	seen := make(map[string]int)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errJSON
		}
		v, err := readValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		if i, dup := seen[key]; dup {
			n.vals[i] = v
			continue
		}
		seen[key] = len(n.keys)
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
	_, err := dec.Token() // '}'
	return n, err
}

// skipNested consumes the rest of a value whose opening delimiter has been
// read, counting rather than recursing.
func skipNested(dec *json.Decoder) error {
	for open := 1; open > 0; {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			open++
		case json.Delim('}'), json.Delim(']'):
			open--
		}
	}
	return nil
}

func writeJSON(sb *strings.Builder, n *jnode, indent int) {
	switch n.kind {
	case jNull:
		sb.WriteString("null")
	case jBool:
		if n.b {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case jNumber:
		sb.WriteString(n.text)
	case jString:
		writeJSONString(sb, n.text)
	case jDeep:
		if n.text == "[" {
			sb.WriteString("[]")
		} else {
			sb.WriteString("{}")
		}
	case jArray, jObject:
		opn, cls := "[", "]"
		if n.kind == jObject {
			opn, cls = "{", "}"
		}
		sb.WriteString(opn)
		for i, v := range n.vals {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('\n')
			sb.WriteString(strings.Repeat("  ", indent+1))
			if n.kind == jObject {
				writeJSONString(sb, n.keys[i])
				sb.WriteString(": ")
			}
			writeJSON(sb, v, indent+1)
		}
		if len(n.vals) > 0 {
			sb.WriteByte('\n')
			sb.WriteString(strings.Repeat("  ", indent))
		}
		sb.WriteString(cls)
	}
}

// writeJSONString writes s as a JSON string. Besides what JSON requires, it
// escapes every character Sanitize would, as \u sequences.
func writeJSONString(sb *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	sb.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(byte(r))
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			sb.WriteString(`\ufffd`)
		case unsafeRune(r):
			units := []rune{r}
			if r > 0xffff { // JSON has no longer escape: a surrogate pair
				hi, lo := utf16.EncodeRune(r)
				units = []rune{hi, lo}
			}
			for _, u := range units {
				sb.WriteString(`\u`)
				for shift := 12; shift >= 0; shift -= 4 {
					sb.WriteByte(hex[u>>shift&0xf])
				}
			}
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	sb.WriteByte('"')
}
