package config

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"
)

// A reader reads one document in one format into a Config.
type reader struct {
	d    *doc
	f    format
	lay  *layout // f's
	exp  *expander
	opts Options
	cfg  *Config
}

func newReader(d *doc, f format, opts Options) *reader {
	lay := f.layout()
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	ws := opts.Workspace
	if ws == "" && (lay.dialect == editorVars || lay.dialect == vscodeVars) {
		ws = workspaceOf(d.path)
	}
	return &reader{
		d:    d,
		f:    f,
		lay:  lay,
		opts: opts,
		exp:  &expander{dialect: lay.dialect, lookupEnv: lookup, home: home, workspace: ws, inputs: opts.Inputs},
		cfg:  &Config{Path: d.path, Format: lay.Name},
	}
}

// readServers reads the servers under the format's key, which must not
// be empty: what most formats' read does.
func (r *reader) readServers() error {
	m, err := r.serversMember(r.d.root)
	if err != nil {
		return err
	}
	r.cfg.Servers, err = r.serverList(m, false)
	return err
}

// serversMember finds the format's servers key in obj.
func (r *reader) serversMember(obj *node) (*member, error) {
	key := r.lay.serversKey
	if obj.kind != objectNode {
		return nil, r.d.errorAt(obj.off, "top level is "+obj.describe()+`, want an object with "`+key+`"`)
	}
	var found *member
	for i := range obj.members {
		m := &obj.members[i]
		if m.key != key {
			continue
		}
		if found != nil {
			return nil, r.d.errorAt(m.off, `"`+key+`" appears twice`)
		}
		found = m
	}
	if found == nil {
		msg := `no "` + key + `" key at the top level`
		for _, f := range formats {
			if other := f.layout(); other.serversKey != key && obj.get(other.serversKey) != nil {
				msg += ` (found "` + other.serversKey + `": is this a ` + other.Client + ` file? try --format ` + other.Name + `)`
				break
			}
		}
		return nil, &Error{Path: r.d.path, Line: 1, Col: 1, Msg: msg}
	}
	return found, nil
}

// serverList reads the object of servers of member m. An empty object is
// an error unless emptyOK.
func (r *reader) serverList(m *member, emptyOK bool) ([]ServerSpec, error) {
	v := m.val
	if v.kind != objectNode {
		return nil, r.d.errorAt(v.off, fmt.Sprintf("%q is %s, want an object", m.key, v.describe()))
	}
	if len(v.members) == 0 && !emptyOK {
		return nil, r.d.errorAt(m.off, fmt.Sprintf("no servers: %q is empty", m.key))
	}
	var specs []ServerSpec
	declared := map[string]int{} // label -> offset of its key
	for _, s := range v.members {
		if p := labelProblem(s.key); p != "" {
			return nil, r.d.errorAt(s.off, p)
		}
		if first, dup := declared[s.key]; dup {
			return nil, r.d.errorAt(s.off, fmt.Sprintf("duplicate server label %q (first declared at %s)", s.key, r.d.at(first)))
		}
		declared[s.key] = s.off
		spec, err := r.server(s.key, s.val)
		if err != nil {
			return nil, err
		}
		spec.Line, spec.Col = r.d.serverAt(s.off)
		specs = append(specs, spec)
	}
	return specs, nil
}

// server reads one server object.
func (r *reader) server(label string, n *node) (ServerSpec, error) {
	spec := ServerSpec{Label: label, Format: r.lay.Name}
	if n.kind != objectNode {
		return spec, r.d.errorAt(n.off, fmt.Sprintf("server %q is %s, want an object", label, n.describe()))
	}
	raw := rawServer{label: label}
	seen := map[string]bool{}
	for _, m := range n.members {
		if seen[m.key] {
			return spec, r.d.errorAt(m.off, fmt.Sprintf("server %q: %q appears twice", label, m.key))
		}
		seen[m.key] = true
		if !r.lay.defines(m.key) {
			spec.Unknown = append(spec.Unknown, m.key)
			spec.Findings = append(spec.Findings, fmt.Sprintf("%s: unknown key %q: %s does not read it", r.d.at(m.off), m.key, r.lay.Client))
			continue
		}
		if err := r.f.field(r, &raw, m); err != nil {
			return spec, err
		}
	}
	r.build(&spec, &raw)
	return spec, nil
}

// str reads a string value; null counts as absent.
func (r *reader) str(label string, m member) (str, error) {
	switch m.val.kind {
	case nullNode:
		return str{}, nil
	case stringNode:
		return str{s: m.val.text, off: m.val.off, set: true}, nil
	}
	return str{}, r.d.errorAt(m.val.off, fmt.Sprintf("server %q: %s is %s, want a string", label, m.key, m.val.describe()))
}

// strs reads an array of strings; null means none.
func (r *reader) strs(label string, m member) ([]str, error) {
	switch m.val.kind {
	case nullNode:
		return nil, nil
	case arrayNode:
	default:
		return nil, r.d.errorAt(m.val.off, fmt.Sprintf("server %q: %s is %s, want an array of strings", label, m.key, m.val.describe()))
	}
	out := []str{}
	for i, e := range m.val.elems {
		if e.kind != stringNode {
			return nil, r.d.errorAt(e.off, fmt.Sprintf("server %q: %s[%d] is %s, want a string", label, m.key, i, e.describe()))
		}
		out = append(out, str{s: e.text, off: e.off, set: true})
	}
	return out, nil
}

// names reads an array of tool names.
func (r *reader) names(label string, m member) ([]string, error) {
	ss, err := r.strs(label, m)
	var out []string
	for _, s := range ss {
		out = append(out, s.s)
	}
	return out, err
}

// pairs reads an object of strings, in file order; null means none.
func (r *reader) pairs(label string, m member) ([]pair, error) {
	switch m.val.kind {
	case nullNode:
		return nil, nil
	case objectNode:
	default:
		return nil, r.d.errorAt(m.val.off, fmt.Sprintf("server %q: %s is %s, want an object of strings", label, m.key, m.val.describe()))
	}
	out := []pair{}
	seen := map[string]bool{}
	for _, e := range m.val.members {
		if seen[e.key] {
			return nil, r.d.errorAt(e.off, fmt.Sprintf("server %q: %s %q appears twice", label, m.key, e.key))
		}
		seen[e.key] = true
		if e.val.kind != stringNode {
			return nil, r.d.errorAt(e.val.off, fmt.Sprintf("server %q: %s %q is %s, want a string", label, m.key, e.key, e.val.describe()))
		}
		out = append(out, pair{key: e.key, val: str{s: e.val.text, off: e.val.off, set: true}})
	}
	return out, nil
}

func (r *reader) bool(label string, m member) (bool, error) {
	if m.val.kind != boolNode {
		return false, r.d.errorAt(m.val.off, fmt.Sprintf("server %q: %s is %s, want a boolean", label, m.key, m.val.describe()))
	}
	return m.val.text == "true", nil
}

// duration reads a positive number of units.
func (r *reader) duration(label string, m member, unit time.Duration) (time.Duration, error) {
	f, err := strconv.ParseFloat(m.val.text, 64)
	if m.val.kind != numberNode || err != nil || f <= 0 || math.IsInf(f, 0) || f*float64(unit) > float64(math.MaxInt64) {
		return 0, r.d.errorAt(m.val.off, fmt.Sprintf("server %q: %s is %s, want a positive number", label, m.key, m.val.describe()))
	}
	return time.Duration(f * float64(unit)), nil
}
