package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// parseJSON parses a JSON or JSONC (comments, trailing commas) document.
// hujson's tree keeps each object's members in file order and each
// value's offset in the file as written.
func parseJSON(path string, data []byte) (*doc, error) {
	d := &doc{path: path, data: data}
	base := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		base = len(bom)
	}
	text := data[base:]
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, &Error{Path: path, Msg: "empty file"}
	}
	if off := jsonTooDeep(text); off >= 0 {
		return nil, d.depthError(base + off)
	}
	v, err := hujson.Parse(text)
	if err != nil {
		return nil, d.syntaxError(base, err)
	}
	d.jsonc = !v.IsStandard()
	d.root = jsonNode(&v, base)
	return d, nil
}

// jsonNode converts hujson's value v, whose offsets count from base in the
// file. jsonTooDeep has bounded how deep it recurses.
func jsonNode(v *hujson.Value, base int) *node {
	n := &node{off: base + v.StartOffset}
	switch t := v.Value.(type) {
	case hujson.Literal:
		switch t.Kind() {
		case 'n':
			n.kind = nullNode
		case 't', 'f':
			n.kind, n.text = boolNode, string(t)
		case '0':
			n.kind, n.text = numberNode, string(t)
		case '"':
			n.kind, n.text = stringNode, unquote(t)
		}
	case *hujson.Object:
		n.kind = objectNode
		for i := range t.Members {
			m := &t.Members[i]
			key, _ := m.Name.Value.(hujson.Literal) // hujson checked that names are strings
			n.members = append(n.members, member{key: unquote(key), off: base + m.Name.StartOffset, val: jsonNode(&m.Value, base)})
		}
	case *hujson.Array:
		n.kind = arrayNode
		for i := range t.Elements {
			n.elems = append(n.elems, jsonNode(&t.Elements[i], base))
		}
	}
	return n
}

// unquote returns the value of a valid JSON string literal. One without
// escapes, in valid UTF-8, is its own text between the quotes.
func unquote(lit hujson.Literal) string {
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	return lit.String()
}

// syntaxError reports the first error in a document that is not JSONC,
// jsoncErr being hujson's. encoding/json's words are the more precise,
// but it stops at the first comment; when hujson got further, its error
// is the real one.
func (d *doc) syntaxError(base int, jsoncErr error) error {
	text := d.data[base:]
	jsonErr := json.Unmarshal(text, new(json.RawMessage))
	if jsonErr == nil { // not expected: hujson reads a superset of JSON
		jsonErr = jsoncErr
	}
	off, msg := 0, jsonErr.Error()
	var se *json.SyntaxError
	if errors.As(jsonErr, &se) {
		off = int(se.Offset)
		if off > 0 && off <= len(text) && se.Error() != "unexpected end of JSON input" {
			off-- // Offset counts the offending byte itself
		}
	}
	if hoff, hmsg, ok := hujsonError(text, jsoncErr); ok && (hoff > off || hoff == off && off < len(text) && text[off] == '/') {
		off, msg = hoff, hmsg
	}
	return d.errorAt(off+base, msg)
}

// hujsonError returns where in text hujson's error err is and what it
// says. hujson exports no offset: it wraps the cause, which says what is
// wrong, in "hujson: line L, column C: ", C counting bytes, and that
// prefix is the only place the position is.
func hujsonError(text []byte, err error) (off int, msg string, ok bool) {
	cause := errors.Unwrap(err)
	var line, col int
	if cause == nil {
		return 0, "", false
	}
	if _, serr := fmt.Sscanf(err.Error(), "hujson: line %d, column %d:", &line, &col); serr != nil || line < 1 || col < 1 {
		return 0, "", false
	}
	return min(lineOffset(text, line)+col-1, len(text)), cause.Error(), true
}
