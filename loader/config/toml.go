package config

import (
	"bytes"
	"errors"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// parseTOML parses a TOML document into the same ordered tree as JSON.
// go-toml's expression parser gives the keys in file order with their
// offsets, which a decoded map would lose; its decoder then checks the
// whole document (duplicate keys, redefined tables). The tree is built
// first, counting how deep tables nest, so that the decoder, which builds
// a map per level, never sees a document nested past maxDepth.
func parseTOML(path string, data []byte) (*doc, error) {
	d := &doc{path: path, data: data}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Path: path, Msg: "empty file"}
	}
	if off := tomlTooDeep(data); off >= 0 {
		return nil, d.depthError(off)
	}
	b := tomlBuilder{deep: -1}
	root, perr := b.build(data)
	if b.deep >= 0 {
		return nil, d.depthError(b.deep)
	}
	var check map[string]any
	if err := toml.Unmarshal(data, &check); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position() // col counts bytes
			return nil, d.errorAt(lineOffset(data, line)+col-1, strings.TrimPrefix(de.Error(), "toml: "))
		}
		return nil, &Error{Path: path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	if perr != nil { // the decoder accepted it; be sure
		return nil, &Error{Path: path, Msg: perr.Error()}
	}
	d.root = root
	return d, nil
}

// A tomlBuilder builds the tree of a TOML document. Depths count tables
// and arrays from the document's own table, at 1, as a JSON document's
// brackets do.
type tomlBuilder struct {
	// deep is the offset of the first key or value nested past maxDepth,
	// or -1. Building stops there.
	deep int
}

// nests reports whether a table or array at depth, starting at off, is
// within maxDepth, recording off when it is not.
func (b *tomlBuilder) nests(depth, off int) bool {
	if depth <= maxDepth {
		return true
	}
	if b.deep < 0 {
		b.deep = off
	}
	return false
}

func (b *tomlBuilder) build(data []byte) (*node, error) {
	root := &node{kind: objectNode}
	cur, depth := root, 1
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() && b.deep < 0 {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			cur, depth = root, 1
			for k := e.Key(); k.Next(); {
				if depth++; !b.nests(depth, int(k.Node().Raw.Offset)) {
					break
				}
				cur = child(cur, k.Node(), int(k.Node().Raw.Offset))
			}
		case unstable.ArrayTable:
			parent := root
			var last *unstable.Node
			depth = 1
			for k := e.Key(); k.Next(); {
				// The last key is an array, its element a table below it.
				if depth++; !b.nests(depth+1, int(k.Node().Raw.Offset)) {
					break
				}
				if k.IsLast() {
					last = k.Node()
					break
				}
				parent = child(parent, k.Node(), int(k.Node().Raw.Offset))
			}
			if last == nil {
				break
			}
			arr := parent.get(string(last.Data))
			if arr == nil {
				parent.members = append(parent.members, member{key: string(last.Data), off: int(last.Raw.Offset),
					val: &node{kind: arrayNode, off: int(last.Raw.Offset)}})
				arr = &parent.members[len(parent.members)-1]
			}
			cur, depth = &node{kind: objectNode, off: int(last.Raw.Offset)}, depth+1
			arr.val.elems = append(arr.val.elems, cur)
		case unstable.KeyValue:
			b.keyValue(cur, depth, e)
		}
	}
	return root, p.Error()
}

// child returns the table named by key node k in parent, creating it.
func child(parent *node, k *unstable.Node, off int) *node {
	name := string(k.Data)
	if m := parent.get(name); m != nil {
		if m.val.kind == arrayNode && len(m.val.elems) > 0 { // [[a]] then [a.b]
			return m.val.elems[len(m.val.elems)-1]
		}
		return m.val
	}
	n := &node{kind: objectNode, off: off}
	parent.members = append(parent.members, member{key: name, off: off, val: n})
	return n
}

// keyValue adds a (possibly dotted) key and its value to table t, at
// depth.
func (b *tomlBuilder) keyValue(t *node, depth int, e *unstable.Node) {
	var keys []*unstable.Node
	for k := e.Key(); k.Next(); {
		keys = append(keys, k.Node())
	}
	for _, k := range keys[:len(keys)-1] {
		if depth++; !b.nests(depth, int(k.Raw.Offset)) {
			return
		}
		t = child(t, k, int(k.Raw.Offset))
	}
	last := keys[len(keys)-1]
	off := int(last.Raw.Offset)
	t.members = append(t.members, member{key: string(last.Data), off: off, val: b.value(e.Value(), off, depth+1)})
}

// value converts a value node that sits at depth; off is where its key
// starts, for values the parser gives no position (arrays).
func (b *tomlBuilder) value(v *unstable.Node, off, depth int) *node {
	if v.Raw.Length > 0 {
		off = int(v.Raw.Offset)
	}
	n := &node{off: off}
	switch v.Kind {
	case unstable.String:
		n.kind, n.text = stringNode, string(v.Data)
	case unstable.Bool:
		n.kind, n.text = boolNode, string(v.Data)
	case unstable.Integer, unstable.Float:
		n.kind, n.text = numberNode, strings.ReplaceAll(string(v.Data), "_", "")
	case unstable.Array:
		n.kind = arrayNode
		if !b.nests(depth, off) {
			break
		}
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind != unstable.Comment {
				n.elems = append(n.elems, b.value(c, off, depth+1))
			}
		}
	case unstable.InlineTable:
		n.kind = objectNode
		if !b.nests(depth, off) {
			break
		}
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				b.keyValue(n, depth, c)
			}
		}
	default: // dates and times: kept as written
		n.kind, n.text = stringNode, string(v.Data)
	}
	return n
}

// lineOffset returns the byte offset where 1-based line starts.
func lineOffset(data []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}
