package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// How `mcplens tap install` edits a config: by bytes, where the server's
// command and args are, so that everything else (comments, order,
// formatting, variables) stays as it was, and the edit can be undone
// exactly. A server
//
//	"command": "npx", "args": ["-y", "srv"]
//
// becomes
//
//	"command": "/usr/bin/mcplens", "args": ["tap", "--name", "LABEL", "--record", "FILE", "--", "npx", "-y", "srv"]
//
// with the original command's own bytes ("npx", a variable and all) after
// "--". A server with no args gets them after its command (tapArgsJSON,
// tapArgsTOML).

// A serverSpan is where one server's command and args are in a config.
type serverSpan struct {
	label string
	// cmd is the command value's bytes [start, end); args the args array's,
	// or -1, -1 when the server has none.
	cmd, args [2]int
	// hasArgs reports whether the args array has elements.
	hasArgs bool
	// why is set for a server that cannot be tapped in place.
	why string
}

// The texts an install inserts for a server without args, before the
// array.
const (
	tapArgsJSON = `, "args": `
	tapArgsTOML = "\nargs = "
)

// tapPrefix is what an install puts first in a server's args: the tap's
// arguments, then the original command's bytes.
func tapPrefix(label, record string, cmd []byte) string {
	return `"tap", "--name", ` + jsonLit(label) + `, "--record", ` + jsonLit(record) + `, "--", ` + string(cmd)
}

// jsonLit is s as a JSON string, which is a TOML basic string too.
func jsonLit(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// An edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply applies edits, which do not overlap, to data.
func apply(data []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := slices.Clone(data)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.text), out[e.end:])
	}
	return out
}

// tapEdits are the edits that tap the server at sp through exe, recording
// to record.
func tapEdits(data []byte, sp serverSpan, exe, record string, toml bool) []edit {
	cmd := data[sp.cmd[0]:sp.cmd[1]]
	prefix := tapPrefix(sp.label, record, cmd)
	edits := []edit{{sp.cmd[0], sp.cmd[1], jsonLit(exe)}}
	switch {
	case sp.args[0] < 0 && toml:
		edits = append(edits, edit{sp.cmd[1], sp.cmd[1], tapArgsTOML + "[" + prefix + "]"})
	case sp.args[0] < 0:
		edits = append(edits, edit{sp.cmd[1], sp.cmd[1], tapArgsJSON + "[" + prefix + "]"})
	case sp.hasArgs:
		edits = append(edits, edit{sp.args[0] + 1, sp.args[0] + 1, prefix + ", "})
	default:
		edits = append(edits, edit{sp.args[0] + 1, sp.args[0] + 1, prefix})
	}
	return edits
}

// tapped reports whether the server at sp runs through a tap an install
// put there.
func tapped(data []byte, sp serverSpan) bool {
	return sp.args[0] >= 0 && bytes.HasPrefix(data[sp.args[0]:], []byte(`["tap", "--name", `))
}

// untapEdits are the edits that undo tapEdits on the server at sp.
func untapEdits(data []byte, sp serverSpan, toml bool) ([]edit, error) {
	arr := data[sp.args[0]:sp.args[1]]
	i := len(`["tap", "--name", `)
	var ok bool
	for _, want := range []string{`, "--record", `, `, "--", `} {
		if i, ok = skipString(arr, i); !ok || !bytes.HasPrefix(arr[i:], []byte(want)) {
			return nil, fmt.Errorf("server %q: its args were not written by mcplens tap install", sp.label)
		}
		i += len(want)
	}
	cmdStart := i
	if i, ok = skipString(arr, i); !ok {
		return nil, fmt.Errorf("server %q: its tapped command is not a string", sp.label)
	}
	cmd := string(arr[cmdStart:i])
	edits := []edit{{sp.cmd[0], sp.cmd[1], cmd}}
	insert := tapArgsJSON
	if toml {
		insert = tapArgsTOML
	}
	switch {
	case bytes.HasPrefix(arr[i:], []byte(", ")):
		edits = append(edits, edit{sp.args[0] + 1, sp.args[0] + i + 2, ""})
	case string(arr[i:]) == "]" && string(data[sp.cmd[1]:sp.args[0]]) == insert:
		edits = append(edits, edit{sp.cmd[1], sp.args[1], ""}) // args the install added
	case string(arr[i:]) == "]":
		edits = append(edits, edit{sp.args[0] + 1, sp.args[0] + i, ""})
	default:
		return nil, fmt.Errorf("server %q: its args were not written by mcplens tap install", sp.label)
	}
	return edits, nil
}

// skipString returns the end of the JSON or TOML string (basic or
// literal, on one line) starting at b[i].
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' && b[i] != '\'' {
		return i, false
	}
	quote := b[i]
	for j := i + 1; j < len(b); j++ {
		switch {
		case b[j] == '\n':
			return i, false
		case b[j] == '\\' && quote == '"':
			j++
		case b[j] == quote:
			return j + 1, true
		}
	}
	return i, false
}

// jsonSpans finds the servers under key in a JSON or JSONC config, and in
// ~/.claude.json under each project's key too.
func jsonSpans(data []byte, key string) ([]serverSpan, error) {
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, err
	}
	var out []serverSpan
	servers := func(obj *hujson.Value) {
		for _, m := range members(member(obj, key)) {
			out = append(out, jsonSpan(m.Name.Value.(hujson.Literal).String(), &m.Value))
		}
	}
	servers(&v)
	for _, p := range members(member(&v, "projects")) {
		servers(&p.Value)
	}
	return out, nil
}

// jsonSpan finds one server's command and args (Zed's older form keeps
// them in a command object, as path and args).
func jsonSpan(label string, server *hujson.Value) serverSpan {
	sp := serverSpan{label: label, args: [2]int{-1, -1}}
	holder := server
	cmd := member(server, "command")
	if cmd != nil {
		if _, isObj := cmd.Value.(*hujson.Object); isObj {
			holder, cmd = cmd, member(cmd, "path")
		}
	}
	if cmd == nil {
		sp.why = "has no command (an HTTP server: tap it with --listen and --upstream)"
		return sp
	}
	if lit, ok := cmd.Value.(hujson.Literal); !ok || lit.Kind() != '"' {
		sp.why = "its command is not a string"
		return sp
	}
	sp.cmd = [2]int{cmd.StartOffset, cmd.EndOffset}
	if args := member(holder, "args"); args != nil {
		arr, ok := args.Value.(*hujson.Array)
		if !ok {
			sp.why = "its args are not an array"
			return sp
		}
		sp.args, sp.hasArgs = [2]int{args.StartOffset, args.EndOffset}, len(arr.Elements) > 0
	}
	return sp
}

// member returns the value of obj's member name, or nil.
func member(obj *hujson.Value, name string) *hujson.Value {
	for _, m := range members(obj) {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			return &m.Value
		}
	}
	return nil
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

// tomlSpans finds the servers of a TOML config (Codex): each table
// [KEY.LABEL], and in it the command and args keys. A server written
// another way (an inline table, dotted keys) is not found.
func tomlSpans(data []byte, key string) []serverSpan {
	var out []serverSpan
	var cur *serverSpan
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := bytes.TrimLeft(data[off:end], " \t")
		lineOff := end - len(line) // where line starts
		next := end + 1
		switch {
		case bytes.HasPrefix(line, []byte("[[")):
			cur = nil
		case bytes.HasPrefix(line, []byte("[")):
			cur = nil
			if keys, ok := tomlKeys(line[1:]); ok && len(keys) == 2 && keys[0] == key {
				out = append(out, serverSpan{label: keys[1], args: [2]int{-1, -1}, cmd: [2]int{-1, -1}})
				cur = &out[len(out)-1]
			}
		case cur != nil:
			name, rest, ok := bytes.Cut(line, []byte("="))
			if !ok {
				break
			}
			name = bytes.Trim(name, " \t\"'")
			start := lineOff + len(line) - len(bytes.TrimLeft(rest, " \t"))
			switch string(name) {
			case "command":
				if e, ok := skipString(data, start); ok {
					cur.cmd = [2]int{start, e}
				}
			case "args":
				if e, elems, ok := skipArray(data, start); ok {
					cur.args, cur.hasArgs = [2]int{start, e}, elems
					next = max(next, e)
				}
			}
		}
		off = next
	}
	for i := range out {
		if out[i].cmd[0] < 0 {
			out[i].why = "has no command (an HTTP server: tap it with --listen and --upstream)"
		}
	}
	return out
}

// tomlKeys reads the dotted key of a table header, after its '['.
func tomlKeys(b []byte) ([]string, bool) {
	var keys []string
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == ' ' || c == '\t' || c == '.':
			i++
		case c == ']':
			return keys, true
		case c == '"' || c == '\'':
			e, ok := skipString(b, i)
			if !ok {
				return nil, false
			}
			var s string
			if c == '\'' {
				s = string(b[i+1 : e-1])
			} else if json.Unmarshal(b[i:e], &s) != nil {
				return nil, false
			}
			keys = append(keys, s)
			i = e
		default:
			j := i
			for j < len(b) && b[j] != '.' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' {
				j++
			}
			keys = append(keys, string(b[i:j]))
			i = j
		}
	}
	return nil, false
}

// skipArray returns the end of the TOML array starting at b[i], and
// whether it has elements.
func skipArray(b []byte, i int) (int, bool, bool) {
	if i >= len(b) || b[i] != '[' {
		return i, false, false
	}
	depth, elems := 0, false
	for j := i; j < len(b); j++ {
		switch c := b[j]; {
		case c == '[':
			depth++
		case c == ']':
			if depth--; depth == 0 {
				return j + 1, elems, true
			}
		case c == '#':
			for j < len(b) && b[j] != '\n' {
				j++
			}
		case c == '"' || c == '\'':
			e, ok := skipString(b, j)
			if !ok {
				return i, false, false
			}
			j, elems = e-1, true
		case c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',':
			elems = true
		}
	}
	return i, false, false
}
