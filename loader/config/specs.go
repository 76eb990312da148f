package config

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
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
	disabled             bool
	disabledWhy          string
	oauth                *rawOAuth
	notes                []string // findings on what the config says
	timeout              time.Duration
}

// strings are the server keys whose value is one string, each with where
// it goes in raw.
func (raw *rawServer) strings() map[string]*str {
	return map[string]*str{
		"command": &raw.command, "type": &raw.typ, "url": &raw.url, "serverUrl": &raw.serverURL,
		"httpUrl": &raw.httpURL, "cwd": &raw.cwd, "envFile": &raw.envFile,
		"bearer_token_env_var": &raw.bearer, "source": &raw.source,
	}
}

// field reads one key the format defines.
func (r *reader) field(raw *rawServer, m member) error {
	if p := raw.strings()[m.key]; p != nil {
		var err error
		*p, err = r.str(raw.label, m)
		if err == nil && m.key == "command" && p.set && p.s == "" {
			err = r.d.errorAt(m.val.off, fmt.Sprintf("server %q: empty command", raw.label))
		}
		return err
	}
	var err error
	switch m.key {
	case r.lay.include: // a defined key, never ""
		raw.include, err = r.names(raw.label, m)
	case r.lay.exclude:
		raw.exclude, err = r.names(raw.label, m)
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
	case "enabled", "disabled":
		var b bool
		if b, err = r.bool(raw.label, m); err == nil && b == (m.key == "disabled") {
			raw.disabled = true
			raw.disabledWhy = fmt.Sprintf("%s = %t", m.key, b)
		}
	case "oauth", "auth":
		err = r.oauth(raw, m)
	case "timeout", "startup_timeout_ms":
		raw.timeout, err = r.duration(raw.label, m, time.Millisecond)
	case "startup_timeout_sec":
		raw.timeout, err = r.duration(raw.label, m, time.Second)
	}
	return err
}

// build turns what a server object said into its spec: the transport the
// client would use, with variables expanded.
func (r *reader) build(spec *ServerSpec, raw *rawServer) {
	r.exp.take() // what an earlier server's strings expanded to is not this one's
	defer func() { spec.Expanded = append(r.exp.take(), oauthSecret(spec)...) }()
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

	var blocked string
	spec.Transport, spec.URL, blocked = r.f.transport(raw)
	if blocked != "" {
		spec.Blocked = blocked
	}
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
				spec.Blocked = r.f.nothingToStart(raw)
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
		note(raw.command.off, "%s connects to the url; command and args are not used", r.lay.Client)
	}

	spec.IncludeTools, spec.ExcludeTools = raw.include, raw.exclude
	if raw.disabled {
		spec.Disabled = true
		spec.Findings = append(spec.Findings, fmt.Sprintf("disabled (%s): every tool is shown filtered", raw.disabledWhy))
	}
	spec.Timeout = raw.timeout
	buildOAuth(spec, raw, expand)
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
