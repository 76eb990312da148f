package config

import (
	"bytes"
	"fmt"
	"unicode/utf8"
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
	// last is the last position serverAt converted.
	last textPos
}

// A textPos is a byte offset with its line and column.
type textPos struct{ off, line, col int }

// serverAt is position for offsets given in increasing order (each
// server's, in the file's order): it counts on from the last one, so that
// the positions of a file's servers take one pass over it, not one each
// (a single-line file of 50,000 servers would take minutes).
func (d *doc) serverAt(off int) (line, col int) {
	off = min(max(off, 0), len(d.data))
	c := d.last
	if c.line == 0 || off < c.off {
		c.line, c.col = position(d.data, off)
	} else {
		seg := d.data[c.off:off]
		if nl := bytes.LastIndexByte(seg, '\n'); nl >= 0 {
			c.line += bytes.Count(seg, []byte("\n"))
			c.col = 1 + utf8.RuneCount(seg[nl+1:])
		} else {
			c.col += utf8.RuneCount(seg)
		}
	}
	c.off = off
	d.last = c
	return c.line, c.col
}

// errorAt builds an Error at byte offset off of the file.
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
