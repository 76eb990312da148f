package loader

import (
	"bytes"
	"errors"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// parseTOML parses a TOML document into the same ordered tree as JSON.
// go-toml's decoder checks the whole document (duplicate keys, redefined
// tables); its expression parser then gives the keys in file order with
// their offsets, which a decoded map would lose.
func parseTOML(path string, data []byte) (*doc, error) {
	d := &doc{path: path, data: data}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ConfigError{Path: path, Msg: "empty file"}
	}
	var check map[string]any
	if err := toml.Unmarshal(data, &check); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position() // col counts bytes
			return nil, d.errorAt(lineOffset(data, line)+col-1, strings.TrimPrefix(de.Error(), "toml: "))
		}
		return nil, &ConfigError{Path: path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}

	root := &node{kind: objectNode}
	cur := root
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			cur = root
			for k := e.Key(); k.Next(); {
				cur = child(cur, k.Node(), int(k.Node().Raw.Offset))
			}
		case unstable.ArrayTable:
			parent := root
			var last *unstable.Node
			for k := e.Key(); k.Next(); {
				if k.IsLast() {
					last = k.Node()
					break
				}
				parent = child(parent, k.Node(), int(k.Node().Raw.Offset))
			}
			arr := parent.get(string(last.Data))
			if arr == nil {
				parent.members = append(parent.members, member{key: string(last.Data), off: int(last.Raw.Offset),
					val: &node{kind: arrayNode, off: int(last.Raw.Offset)}})
				arr = &parent.members[len(parent.members)-1]
			}
			cur = &node{kind: objectNode, off: int(last.Raw.Offset)}
			arr.val.elems = append(arr.val.elems, cur)
		case unstable.KeyValue:
			keyValue(cur, e)
		}
	}
	if err := p.Error(); err != nil { // the decoder accepted it; be sure
		return nil, &ConfigError{Path: path, Msg: err.Error()}
	}
	d.root = root
	return d, nil
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

// keyValue adds a (possibly dotted) key and its value to table t.
func keyValue(t *node, e *unstable.Node) {
	var keys []*unstable.Node
	for k := e.Key(); k.Next(); {
		keys = append(keys, k.Node())
	}
	for _, k := range keys[:len(keys)-1] {
		t = child(t, k, int(k.Raw.Offset))
	}
	last := keys[len(keys)-1]
	off := int(last.Raw.Offset)
	t.members = append(t.members, member{key: string(last.Data), off: off, val: tomlValue(e.Value(), off)})
}

// tomlValue converts a value node; off is where its key starts, for values
// the parser gives no position (arrays).
func tomlValue(v *unstable.Node, off int) *node {
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
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind != unstable.Comment {
				n.elems = append(n.elems, tomlValue(c, off))
			}
		}
	case unstable.InlineTable:
		n.kind = objectNode
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				keyValue(n, c)
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
