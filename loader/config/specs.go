package config

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A str is a string value of the config and where it is.
type str struct {
	s   string
	off int
	set bool
}

// A pair is one entry of an object of strings.
type pair struct {
	key string
	val str
}

// A rawServer is what one server object says, before variables are
// expanded and a transport is chosen.
type rawServer struct {
	label                                                               string
	typ, command, url, serverURL, httpURL, cwd, envFile, bearer, source str

	args, envVars        []str
	env, headers, envHdr []pair
	include, exclude     []string
	includeKey           string // the key that gave include ("includeTools")
	excludeKey           string
	disabled             bool
	disabledWhy          string
	timeout              time.Duration
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
		specs = append(specs, spec)
	}
	return specs, nil
}

// server reads one server object.
func (r *reader) server(label string, n *node) (ServerSpec, error) {
	spec := ServerSpec{Label: label, Format: r.f.Name}
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
		if !r.f.defines(m.key) {
			spec.Unknown = append(spec.Unknown, m.key)
			spec.Findings = append(spec.Findings, fmt.Sprintf("%s: unknown key %q: %s does not read it", r.d.at(m.off), m.key, r.f.Client))
			continue
		}
		if err := r.field(&raw, m); err != nil {
			return spec, err
		}
	}
	r.build(&spec, &raw)
	return spec, nil
}

// field reads one key the format defines.
func (r *reader) field(raw *rawServer, m member) error {
	var err error
	switch m.key {
	case "command":
		if r.f.Name == "zed" && m.val.kind == objectNode {
			return r.zedCommand(raw, m.val)
		}
		raw.command, err = r.str(raw.label, m)
		if err == nil && raw.command.set && raw.command.s == "" {
			err = r.d.errorAt(m.val.off, fmt.Sprintf("server %q: empty command", raw.label))
		}
	case "type":
		raw.typ, err = r.str(raw.label, m)
	case "url":
		raw.url, err = r.str(raw.label, m)
	case "serverUrl":
		raw.serverURL, err = r.str(raw.label, m)
	case "httpUrl":
		raw.httpURL, err = r.str(raw.label, m)
	case "cwd":
		raw.cwd, err = r.str(raw.label, m)
	case "envFile":
		raw.envFile, err = r.str(raw.label, m)
	case "bearer_token_env_var":
		raw.bearer, err = r.str(raw.label, m)
	case "source":
		raw.source, err = r.str(raw.label, m)
	case "args":
		raw.args, err = r.strs(raw.label, m)
	case "env_vars":
		raw.envVars, err = r.strs(raw.label, m)
	case "env":
		raw.env, err = r.pairs(raw.label, m)
	case "headers", "http_headers":
		raw.headers, err = r.pairs(raw.label, m)
	case "env_http_headers":
		raw.envHdr, err = r.pairs(raw.label, m)
	case "includeTools", "enabled_tools":
		raw.include, err = r.names(raw.label, m)
		raw.includeKey = m.key
	case "excludeTools", "disabled_tools", "disabledTools":
		raw.exclude, err = r.names(raw.label, m)
		raw.excludeKey = m.key
	case "enabled", "disabled":
		var b bool
		if b, err = r.bool(raw.label, m); err == nil && b == (m.key == "disabled") {
			raw.disabled = true
			raw.disabledWhy = fmt.Sprintf("%s = %t", m.key, b)
		}
	case "timeout", "startup_timeout_ms":
		raw.timeout, err = r.duration(raw.label, m, time.Millisecond)
	case "startup_timeout_sec":
		raw.timeout, err = r.duration(raw.label, m, time.Second)
	}
	return err
}

// zedCommand reads Zed's {"path": ..., "args": [...], "env": {...}} form.
func (r *reader) zedCommand(raw *rawServer, obj *node) error {
	for _, m := range obj.members {
		var err error
		switch m.key {
		case "path", "command":
			raw.command, err = r.str(raw.label, m)
		case "args":
			raw.args, err = r.strs(raw.label, m)
		case "env":
			raw.env, err = r.pairs(raw.label, m)
		}
		if err != nil {
			return err
		}
	}
	return nil
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

// build turns what a server object said into its spec: the transport the
// client would use, with variables expanded.
func (r *reader) build(spec *ServerSpec, raw *rawServer) {
	r.exp.take() // what an earlier server's strings expanded to is not this one's
	defer func() { spec.Expanded = r.exp.take() }()
	note := func(off int, format string, args ...any) {
		spec.Findings = append(spec.Findings, r.d.at(off)+": "+fmt.Sprintf(format, args...))
	}
	expand := func(what string, v str) string {
		s, problems := r.exp.expand(v.s)
		for _, p := range problems {
			note(v.off, "%s: %s", what, p)
		}
		return s
	}
	block := func(what string, v str) string {
		s, problems := r.exp.expand(v.s)
		if len(problems) > 0 && spec.Blocked == "" {
			spec.Blocked = fmt.Sprintf("%s: %s", what, problems[0])
		}
		for _, p := range problems[min(1, len(problems)):] {
			note(v.off, "%s: %s", what, p)
		}
		return s
	}

	spec.Transport, spec.URL = r.transport(spec, raw)
	address := raw.url
	switch {
	case raw.httpURL.set && spec.URL == raw.httpURL.s:
		address = raw.httpURL
	case raw.serverURL.set && spec.URL == raw.serverURL.s:
		address = raw.serverURL
	}

	switch spec.Transport {
	case TransportStdio:
		if !raw.command.set {
			if spec.Blocked == "" {
				spec.Blocked = r.nothingToStart(raw)
			}
			break
		}
		spec.Command = block("command", raw.command)
		if spec.Command == "" && spec.Blocked == "" {
			spec.Blocked = "command is empty once its variables are expanded"
		}
	default:
		spec.URL = block("url", address)
		if spec.URL == "" && spec.Blocked == "" {
			spec.Blocked = "url is empty once its variables are expanded"
		}
	}

	for i, a := range raw.args {
		if spec.Args == nil {
			spec.Args = []string{}
		}
		spec.Args = append(spec.Args, expand(fmt.Sprintf("args[%d]", i), a))
	}
	if raw.cwd.set {
		spec.Cwd = expand("cwd", raw.cwd)
	}
	if raw.envFile.set {
		spec.Env = r.envFile(spec, expand("envFile", raw.envFile), raw)
	}
	for _, kv := range raw.env {
		spec.Env = append(spec.Env, EnvVar{Key: kv.key, Value: expand("env "+kv.key, kv.val)})
	}
	if raw.env != nil && spec.Env == nil {
		spec.Env = []EnvVar{}
	}
	for _, name := range raw.envVars {
		if v, ok := r.exp.lookupEnv(name.s); ok {
			spec.Env = append(spec.Env, EnvVar{Key: name.s, Value: v})
		} else {
			note(name.off, "env_vars: %s is not set; not passed", name.s)
		}
	}
	for _, h := range raw.headers {
		spec.Headers = append(spec.Headers, Header{Name: h.key, Value: expand("header "+h.key, h.val)})
	}
	for _, h := range raw.envHdr {
		if v, ok := r.exp.lookupEnv(h.val.s); ok {
			spec.Headers = append(spec.Headers, Header{Name: h.key, Value: v})
		} else {
			note(h.val.off, "env_http_headers: %s (for %s) is not set; header not sent", h.val.s, h.key)
		}
	}
	if raw.bearer.set {
		if v, ok := r.exp.lookupEnv(raw.bearer.s); ok {
			spec.Headers = append(spec.Headers, Header{Name: "Authorization", Value: "Bearer " + v})
		} else {
			note(raw.bearer.off, "bearer_token_env_var: %s is not set; no Authorization header", raw.bearer.s)
		}
	}
	if spec.Transport != TransportStdio && (raw.command.set || len(raw.args) > 0) {
		note(raw.command.off, "%s connects to the url; command and args are not used", r.f.Client)
	}

	spec.IncludeTools, spec.ExcludeTools = raw.include, raw.exclude
	if raw.disabled {
		spec.Disabled = true
		spec.Findings = append(spec.Findings, fmt.Sprintf("disabled (%s): every tool is shown filtered", raw.disabledWhy))
	}
	spec.Timeout = raw.timeout
}

// transport picks the transport the format's client would use, and its URL
// as written.
func (r *reader) transport(spec *ServerSpec, raw *rawServer) (string, string) {
	switch r.f.Name {
	case "gemini-cli":
		switch {
		case raw.httpURL.set:
			return TransportHTTP, raw.httpURL.s
		case raw.url.set && raw.typ.s == "http":
			return TransportHTTP, raw.url.s
		case raw.url.set:
			return TransportSSE, raw.url.s
		}
		return TransportStdio, ""
	case "windsurf":
		if raw.serverURL.set {
			return TransportHTTP, raw.serverURL.s
		}
	case "claude-code", "vscode":
		switch t := raw.typ.s; {
		case t == TransportStdio, t == TransportHTTP, t == TransportSSE:
			return t, raw.url.s
		case raw.typ.set:
			spec.Blocked = fmt.Sprintf("type %q is not one of stdio, http, sse", t)
			return TransportStdio, ""
		}
	case "claude-desktop":
		return TransportStdio, ""
	}
	if raw.url.set && !raw.command.set {
		return TransportHTTP, raw.url.s
	}
	return TransportStdio, ""
}

// nothingToStart says why a server with no command cannot be started.
func (r *reader) nothingToStart(raw *rawServer) string {
	switch {
	case r.f.Name == "zed" && raw.source.s == "extension":
		return "a Zed extension provides this server; mcplens cannot start it"
	case r.f.Name == "claude-desktop":
		return `no "command": Claude Desktop starts only stdio servers from this file`
	}
	urlKey := map[string]string{"windsurf": `"serverUrl"`, "gemini-cli": `"url" or "httpUrl"`}[r.f.Name]
	if urlKey == "" {
		urlKey = `"url"`
	}
	return `no "command" or ` + urlKey + `: nothing to start`
}

// envFile reads a dotenv file: KEY=VALUE lines, # comments, optional
// quotes and "export". Keys the server's "env" sets are left to it.
func (r *reader) envFile(spec *ServerSpec, path string, raw *rawServer) []EnvVar {
	if !filepath.IsAbs(path) {
		base := r.exp.workspace
		if base == "" {
			base = filepath.Dir(r.d.path)
		}
		path = filepath.Join(base, path)
	}
	data, err := readConfigFile(path, r.opts.maxSize()) // bounded: it may be /dev/zero
	if err != nil {
		spec.Findings = append(spec.Findings, fmt.Sprintf("%s: envFile: %v", r.d.at(raw.envFile.off), err))
		return nil
	}
	override := map[string]bool{}
	for _, kv := range raw.env {
		override[kv.key] = true
	}
	var env []EnvVar
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.HasPrefix(k, "#") || override[k] {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		} else if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		env = append(env, EnvVar{Key: k, Value: v})
	}
	return env
}
