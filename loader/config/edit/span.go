package edit

import (
	"bytes"
	"fmt"

	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/tailscale/hujson"
)

// A span is where a value's bytes are: [start, end).
type span struct{ start, end int }

// An elem is one element of an args array: its bytes and, when it is a
// string, its value.
type elem struct {
	span
	str   string
	isStr bool
}

// A server is where one server's command and args are in a config.
type server struct {
	label string
	// why says why the server cannot be tapped in place, or is "".
	why string
	cmd span
	// hasArgs reports whether the server has an args array, at args, its
	// elements elems.
	hasArgs bool
	args    span
	elems   []elem
	// argsKey is the text that puts an args array right after the
	// command's value, for a server without one: `, "args": ` in JSON,
	// a new line with the command key's indentation and dotted prefix in
	// a TOML table, `, args = ` in a TOML inline table.
	argsKey string
}

const noCommand = "has no command (an HTTP server: tap it with --listen and --upstream)"

// bom is the byte order mark a JSON config may start with.
const bom = "\xef\xbb\xbf"

// jsonServers finds the servers under key in a JSON or JSONC config, and
// in ~/.claude.json under each project's key too.
func jsonServers(data []byte, key string) ([]server, error) {
	base := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		base = len(bom)
	}
	v, err := hujson.Parse(data[base:])
	if err != nil {
		return nil, err
	}
	var out []server
	servers := func(obj *hujson.Value) {
		for _, m := range members(member(obj, key)) {
			out = append(out, jsonServer(m.Name.Value.(hujson.Literal).String(), &m.Value, base))
		}
	}
	servers(&v)
	for _, p := range members(member(&v, "projects")) {
		servers(&p.Value)
	}
	return out, nil
}

// jsonServer finds one server's command and args (Zed's older form keeps
// them in a command object, as path and args); base is where the parsed
// bytes start in the file.
func jsonServer(label string, v *hujson.Value, base int) server {
	s := server{label: label, argsKey: `, "args": `}
	holder, cmdKey := v, "command"
	cmd := member(v, cmdKey)
	if cmd != nil {
		if _, isObj := cmd.Value.(*hujson.Object); isObj {
			holder, cmdKey = cmd, "path"
			cmd = member(holder, cmdKey)
		}
	}
	if cmd == nil {
		s.why = noCommand
		return s
	}
	if lit, ok := cmd.Value.(hujson.Literal); !ok || lit.Kind() != '"' {
		s.why = "its command is not a string"
		return s
	}
	if count(holder, cmdKey) > 1 || count(holder, "args") > 1 {
		s.why = "it names its command or args twice"
		return s
	}
	s.cmd = span{base + cmd.StartOffset, base + cmd.EndOffset}
	args := member(holder, "args")
	if args == nil {
		return s
	}
	arr, ok := args.Value.(*hujson.Array)
	if !ok {
		s.why = "its args are not an array"
		return s
	}
	s.hasArgs, s.args = true, span{base + args.StartOffset, base + args.EndOffset}
	for _, e := range arr.Elements {
		el := elem{span: span{base + e.StartOffset, base + e.EndOffset}}
		if lit, ok := e.Value.(hujson.Literal); ok && lit.Kind() == '"' {
			el.str, el.isStr = lit.String(), true
		}
		s.elems = append(s.elems, el)
	}
	return s
}

// member returns the value of obj's member name, or nil.
func member(obj *hujson.Value, name string) *hujson.Value {
	for _, m := range members(obj) {
		if m.Name.Value.(hujson.Literal).String() == name {
			return &m.Value
		}
	}
	return nil
}

// count is how many members of obj are named name.
func count(obj *hujson.Value, name string) int {
	n := 0
	for _, m := range members(obj) {
		if m.Name.Value.(hujson.Literal).String() == name {
			n++
		}
	}
	return n
}

// members returns obj's members, none when it is not an object.
func members(obj *hujson.Value) []*hujson.ObjectMember {
	if obj == nil {
		return nil
	}
	o, ok := obj.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	out := make([]*hujson.ObjectMember, len(o.Members))
	for i := range o.Members {
		out[i] = &o.Members[i]
	}
	return out
}

// A tomlWalk finds the servers of a TOML config, wherever the document
// puts their keys: a table [KEY.LABEL], dotted keys (LABEL.command = ...
// under [KEY], KEY.LABEL.command = ... at the top), inline tables (LABEL
// = {command = ...}), any of them nested. go-toml's parser gives each key
// and string its offsets, so a table header inside a multi-line string is
// never read as one.
type tomlWalk struct {
	data    []byte
	key     string
	servers []server
	byLabel map[string]int
	seen    map[string]int // how often each server's command and args keys occur
}

func tomlServers(data []byte, key string) ([]server, error) {
	w := &tomlWalk{data: data, key: key, byLabel: map[string]int{}, seen: map[string]int{}}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			table = table[:0]
			for k := e.Key(); k.Next(); {
				table = append(table, string(k.Node().Data))
			}
			w.table(table)
		case unstable.ArrayTable:
			// An array of tables is never a server: a key of the last
			// element cannot be a server's command (the path has an index).
			table = append(table[:0], "\x00[[")
		case unstable.KeyValue:
			w.keyValue(table, e, false)
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	for i := range w.servers {
		s := &w.servers[i]
		switch {
		case w.seen[s.label+"\x00command"] > 1 || w.seen[s.label+"\x00args"] > 1:
			s.why = "it names its command or args twice"
		case s.why == "" && s.cmd.end == 0:
			s.why = noCommand
		}
	}
	return w.servers, nil
}

// table notes a [KEY.LABEL] header: a server, even before its keys.
func (w *tomlWalk) table(path []string) {
	if len(path) == 2 && path[0] == w.key {
		w.server(path[1])
	}
}

// server returns the server labelled label, adding it.
func (w *tomlWalk) server(label string) *server {
	i, ok := w.byLabel[label]
	if !ok {
		i = len(w.servers)
		w.byLabel[label] = i
		w.servers = append(w.servers, server{label: label})
	}
	return &w.servers[i]
}

// keyValue reads one key = value under the table at path, inline telling
// whether it is inside an inline table.
func (w *tomlWalk) keyValue(path []string, e *unstable.Node, inline bool) {
	full := append([]string(nil), path...)
	var first, last *unstable.Node
	for k := e.Key(); k.Next(); {
		if first == nil {
			first = k.Node()
		}
		last = k.Node()
		full = append(full, string(k.Node().Data))
	}
	if last == nil {
		return
	}
	v := e.Value()
	if len(full) >= 2 && full[0] == w.key {
		w.server(full[1]) // KEY.LABEL = {...} or KEY.LABEL.x = ...
	}
	if v.Kind == unstable.InlineTable {
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				w.keyValue(full, c, true)
			}
		}
		return
	}
	if len(full) != 3 || full[0] != w.key || full[2] != "command" && full[2] != "args" {
		return
	}
	s := w.server(full[1])
	w.seen[s.label+"\x00"+full[2]]++
	keyEnd := int(last.Raw.Offset + last.Raw.Length)
	if full[2] == "command" {
		if v.Kind != unstable.String {
			s.why = "its command is not a string"
			return
		}
		s.cmd = span{int(v.Raw.Offset), int(v.Raw.Offset + v.Raw.Length)}
		s.argsKey = w.argsKey(int(first.Raw.Offset), int(last.Raw.Offset), s.cmd.end, inline)
		return
	}
	if v.Kind != unstable.Array {
		s.why = "its args are not an array"
		return
	}
	start := bytes.IndexByte(w.data[keyEnd:], '[')
	end := int(e.Raw.Offset + e.Raw.Length)
	if start < 0 || keyEnd+start >= end {
		s.why = fmt.Sprintf("its args at offset %d could not be located", keyEnd)
		return
	}
	s.hasArgs, s.args = true, span{keyEnd + start, end}
	for it := v.Children(); it.Next(); {
		c := it.Node()
		el := elem{span: span{-1, -1}}
		if c.Raw.Length > 0 {
			el.span = span{int(c.Raw.Offset), int(c.Raw.Offset + c.Raw.Length)}
		}
		if c.Kind == unstable.String {
			el.str, el.isStr = string(c.Data), true
		}
		s.elems = append(s.elems, el)
	}
}

// argsKey is what puts an args key right after the command's value at
// cmdEnd: in an inline table, `, args = `; in a table, a new line (the
// file's line ending there), the command key's indentation and the dotted
// prefix it has (keyStart to lastKey), then `args = `.
func (w *tomlWalk) argsKey(keyStart, lastKey, cmdEnd int, inline bool) string {
	if inline {
		return ", args = "
	}
	lineStart := bytes.LastIndexByte(w.data[:keyStart], '\n') + 1
	indent := w.data[lineStart:keyStart]
	if len(bytes.Trim(indent, " \t")) > 0 {
		indent = nil
	}
	eol := "\n"
	if nl := bytes.IndexByte(w.data[cmdEnd:], '\n'); nl > 0 && w.data[cmdEnd+nl-1] == '\r' {
		eol = "\r\n"
	}
	return eol + string(indent) + string(w.data[keyStart:lastKey]) + "args = "
}
