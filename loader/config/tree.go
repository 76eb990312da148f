package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// A node is one value of a config document, JSON or TOML, kept with the
// byte offset where it starts so every message can name a line and column.
// Objects keep their members in file order: Go maps do not, and the order
// of servers decides winners under the legacy naming policies.
type node struct {
	kind    nodeKind
	off     int    // byte offset of the value in the file
	text    string // a string's value; a number's or a date's text; "true"/"false"
	members []member
	elems   []*node
}

// A member is one key of an object and its value.
type member struct {
	key string
	off int // byte offset of the key in the file
	val *node
}

type nodeKind int

const (
	nullNode nodeKind = iota
	boolNode
	numberNode
	stringNode
	arrayNode
	objectNode
)

// describe names the node's type for a message: "a string", "an array".
func (n *node) describe() string {
	switch n.kind {
	case nullNode:
		return "null"
	case boolNode:
		return "a boolean"
	case numberNode:
		return "a number"
	case stringNode:
		return "a string"
	case arrayNode:
		return "an array"
	}
	return "an object"
}

// get returns the member named key, or nil.
func (n *node) get(key string) *member {
	if n == nil || n.kind != objectNode {
		return nil
	}
	for i := range n.members {
		if n.members[i].key == key {
			return &n.members[i]
		}
	}
	return nil
}

// A doc is a parsed config file: its tree and what positions are relative to.
type doc struct {
	path string
	data []byte // the whole file
	root *node
	// jsonc is set when the text needed a JSONC parser: comments or
	// trailing commas, which strict JSON clients reject.
	jsonc bool
}

// errorAt builds a ConfigError at byte offset off of the file.
func (d *doc) errorAt(off int, msg string) *Error {
	line, col := position(d.data, off)
	return &Error{Path: d.path, Line: line, Col: col, Msg: msg}
}

// at formats the position of byte offset off as "line:col".
func (d *doc) at(off int) string {
	line, col := position(d.data, off)
	return fmt.Sprintf("%d:%d", line, col)
}

// position converts a byte offset of data to a 1-based line and character
// column. A UTF-8 byte order mark at the start is not a column.
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	if lineStart == 0 && bytes.HasPrefix(data, []byte(bom)) && off >= len(bom) {
		lineStart = len(bom)
	}
	return line, 1 + utf8.RuneCount(data[lineStart:off])
}

const bom = "\xef\xbb\xbf"

// parseJSON parses a JSON or JSONC (comments, trailing commas) document.
// JSONC is standardized in place, comments becoming spaces, so every offset
// still points into the file as written.
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
	std := text
	if err := json.Unmarshal(text, new(json.RawMessage)); err != nil {
		v, herr := hujson.Parse(bytes.Clone(text))
		if herr != nil {
			return nil, d.syntaxError(base, err, herr)
		}
		v.Standardize()
		std = v.Pack()
		if len(std) != len(text) { // Standardize keeps offsets; be sure
			return nil, d.syntaxError(base, err, nil)
		}
		d.jsonc = true
	}
	b := &treeBuilder{text: std, base: base, dec: json.NewDecoder(bytes.NewReader(std))}
	b.dec.UseNumber()
	root, err := b.value()
	if err != nil {
		return nil, d.errorAt(b.next()+base, err.Error())
	}
	d.root = root
	return d, nil
}

// syntaxError reports the first error in a document that is not JSON.
// encoding/json's words are the more precise, but it stops at the first
// comment; when the JSONC parser got further, its error is the real one.
func (d *doc) syntaxError(base int, jsonErr, jsoncErr error) error {
	off, msg := 0, jsonErr.Error()
	var se *json.SyntaxError
	if errors.As(jsonErr, &se) {
		off = int(se.Offset)
		if off > 0 && off <= len(d.data)-base && se.Error() != "unexpected end of JSON input" {
			off-- // Offset counts the offending byte itself
		}
	}
	if jsoncErr != nil {
		text := d.data[base:]
		if hoff, hmsg, ok := hujsonError(text, jsoncErr); ok && (hoff > off || hoff == off && off < len(text) && text[off] == '/') {
			off, msg = hoff, hmsg
		}
	}
	return d.errorAt(off+base, msg)
}

var hujsonErrRE = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// hujsonError recovers the byte offset from a hujson error, which gives a
// line and a byte column.
func hujsonError(text []byte, err error) (off int, msg string, ok bool) {
	m := hujsonErrRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, "", false
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, "", false
		}
		off += i + 1
	}
	return min(off+col-1, len(text)), m[3], true
}

// A treeBuilder reads a standard JSON text token by token into nodes.
type treeBuilder struct {
	text []byte
	base int // offset of text in the file
	dec  *json.Decoder
}

// next returns the offset in text where the next token starts: the
// decoder's offset is the end of the previous token, before any
// whitespace, ':' or ','.
func (b *treeBuilder) next() int {
	off := int(b.dec.InputOffset())
	for off < len(b.text) {
		switch b.text[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func (b *treeBuilder) value() (*node, error) {
	at := b.next()
	tok, err := b.dec.Token()
	if err != nil {
		return nil, err
	}
	n := &node{off: at + b.base}
	switch v := tok.(type) {
	case nil:
		n.kind = nullNode
	case bool:
		n.kind, n.text = boolNode, strconv.FormatBool(v)
	case json.Number:
		n.kind, n.text = numberNode, v.String()
	case string:
		n.kind, n.text = stringNode, v
	case json.Delim:
		switch v {
		case '{':
			n.kind = objectNode
			for b.dec.More() {
				keyAt := b.next()
				tok, err := b.dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := tok.(string) // the text was validated: keys are strings
				val, err := b.value()
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, member{key: key, off: keyAt + b.base, val: val})
			}
		case '[':
			n.kind = arrayNode
			for b.dec.More() {
				val, err := b.value()
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, val)
			}
		}
		if _, err := b.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	}
	return n, nil
}
