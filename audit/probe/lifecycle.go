package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// revisions are the protocol revisions the audit knows, newest first.
var revisions = []string{model.Revision20260728, model.Revision20251125, model.Revision20250618, model.Revision20250326, model.Revision20241105}

var revisionShape = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

type initializeResult struct {
	ProtocolVersion   string                     `json:"protocolVersion"`
	SupportedVersions []string                   `json:"supportedVersions"`
	Capabilities      map[string]json.RawMessage `json:"capabilities"`
	ServerInfo        *struct {
		Name    *string `json:"name"`
		Version *string `json:"version"`
	} `json:"serverInfo"`
}

// initialize runs the handshake of the era asked for: server/discover on
// a stateless revision (falling back to initialize as the era does), else
// initialize then notifications/initialized. It reports whether the
// session is up.
func (a *auditor) initialize(ctx context.Context) bool {
	h := a.o.Handshake
	era := h.Era()
	if era.Discover && a.discover(ctx, era) {
		return true
	}
	h.ProtocolVersion = era.Initialize
	mark := a.t.mark()
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	m, err := a.c.call(pctx, "initialize", loader.InitializeParams(h))
	a.fs.probe("lifecycle.initialize")
	switch {
	case err != nil && (err.Error() == "HTTP 401" || err.Error() == "HTTP 403"):
		a.fs.add("lifecycle.initialize", "initialize", "initialize was answered "+err.Error()+": the server needs a login first (mcplens login CONFIG SERVER), and the audit can say nothing more of it", a.t.since(mark))
		return false
	case err != nil:
		a.fs.add("lifecycle.initialize", "initialize", "initialize was not answered: "+err.Error()+a.stderrTail(), a.t.since(mark))
		return false
	}
	if m.Error != nil {
		a.fs.add("lifecycle.initialize", "initialize", fmt.Sprintf("initialize was refused: %d %s", m.Error.Code, m.Error.Message), a.t.since(mark))
		return false
	}
	var r initializeResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		a.fs.add("lifecycle.initialize", "initialize", "the initialize result is not an InitializeResult: "+err.Error(), a.t.since(mark))
		return false
	}
	switch {
	case r.ProtocolVersion == "":
		a.fs.add("lifecycle.initialize", "initialize", "the initialize result has no protocolVersion", a.t.since(mark))
	case r.Capabilities == nil:
		a.fs.add("lifecycle.initialize", "initialize", "the initialize result has no capabilities object", a.t.since(mark))
	case r.ServerInfo == nil || r.ServerInfo.Name == nil || r.ServerInfo.Version == nil:
		a.fs.add("lifecycle.initialize", "initialize", "the initialize result has no serverInfo with a name and a version", a.t.since(mark))
	default:
		if p := capabilitiesProblem(r.Capabilities); p != "" {
			a.fs.add("lifecycle.initialize", "initialize", p, a.t.since(mark))
		}
	}
	if r.ServerInfo != nil && r.ServerInfo.Name != nil {
		version := ""
		if r.ServerInfo.Version != nil {
			version = *r.ServerInfo.Version
		}
		a.res.ServerInfo = model.Sanitize(*r.ServerInfo.Name + " " + version)
	}
	a.res.Revision, a.caps = r.ProtocolVersion, r.Capabilities
	a.fs.probe("lifecycle.version")
	if r.ProtocolVersion != h.ProtocolVersion && !slices.Contains(revisions, r.ProtocolVersion) {
		a.fs.add("lifecycle.version", "initialize", fmt.Sprintf("asked for %s, the server answered %q, which is no revision of the specification", h.ProtocolVersion, r.ProtocolVersion), a.t.since(mark))
	}
	if a.httpp != nil && slices.Contains(revisions, r.ProtocolVersion) {
		a.httpp.version = r.ProtocolVersion
	}
	if err := a.c.notify(pctx, "notifications/initialized", nil); err != nil && !isHTTPStatus(err) {
		a.fs.add("lifecycle.initialize", "notifications/initialized", "notifications/initialized could not be sent: "+err.Error(), a.t.since(mark))
		return false
	}
	return true
}

// lifecycle probes ping, an unknown method, invalid params, malformed
// JSON, ids and a notification.
func (a *auditor) lifecycle(ctx context.Context) {
	if a.stateless {
		a.fs.skip("lifecycle.ping", "ping is gone from the stateless revisions")
	} else {
		a.fs.skip("lifecycle.server-info", "a check of the stateless revisions (2026-07-28); the session is on "+a.res.Revision)
		a.ping(ctx)
	}
	if a.stateless && a.httpp != nil {
		// Over HTTP a stateless revision wants the status too: 404.
		a.notFound(ctx, "jsonrpc.unknown-method", "mcplens/audit-unknown-method", "a method no revision has")
	} else {
		a.expectError(ctx, "jsonrpc.unknown-method", "mcplens/audit-unknown-method", map[string]any{}, -32601)
	}
	a.unsupportedVersion(ctx) // stateless.go
	switch {
	case a.declares("resources"):
		// A missing uri names no resource: "not found" (-32002) is as
		// right, and so is a stateless revision's missing Mcp-Name header
		// (-32020, header mismatch), which a server checks first.
		a.expectError(ctx, "jsonrpc.invalid-params", "resources/read", map[string]any{}, -32602, -32002, -32020)
	case a.declares("prompts"):
		a.expectError(ctx, "jsonrpc.invalid-params", "prompts/get", map[string]any{}, -32602)
	default:
		a.fs.skip("jsonrpc.invalid-params", "the server declares neither resources nor prompts, whose requests take a required parameter and call nothing")
	}
	a.parseError(ctx)
	a.idEcho(ctx, json.RawMessage(`"mcplens-audit/ü\"1"`))
	a.idEcho(ctx, json.RawMessage(`2147483648`))
	a.notification(ctx)
}

// noop is the request of the settled revision that changes nothing and
// every server of it answers: ping on a handshake revision, server/discover
// on a stateless one, where ping is gone. The checks of rules that hold
// on every revision (ids echoed, a parse error, DNS-rebinding protection)
// send it, so that a refusal is the rule's and not the revision's.
func (a *auditor) noop() string {
	if a.stateless {
		return "server/discover"
	}
	return "ping"
}

func (a *auditor) declares(capability string) bool {
	_, ok := a.caps[capability]
	return ok
}

func (a *auditor) ping(ctx context.Context) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("lifecycle.ping")
	m, err := a.c.call(pctx, "ping", nil)
	switch {
	case err != nil:
		a.fs.add("lifecycle.ping", "ping", "ping was not answered: "+err.Error(), a.t.since(mark))
	case m.Error != nil:
		a.fs.add("lifecycle.ping", "ping", fmt.Sprintf("ping was refused: %d %s", m.Error.Code, m.Error.Message), a.t.since(mark))
	case !isObject(m.Result):
		a.fs.add("lifecycle.ping", "ping", "the ping result is not an object", a.t.since(mark))
	}
}

// expectError sends method and wants the error code (or one of also).
func (a *auditor) expectError(ctx context.Context, id, method string, params any, code int, also ...int) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe(id)
	m, err := a.c.call(pctx, method, params)
	switch {
	case err != nil && isHTTPStatus(err):
		a.fs.add(id, method, fmt.Sprintf("%s was answered %v with no JSON-RPC error, not error %d", method, err, code), a.t.since(mark))
	case err != nil:
		a.fs.add(id, method, fmt.Sprintf("%s was not answered (%v); want error %d", method, err, code), a.t.since(mark))
	case m.Error == nil:
		a.fs.add(id, method, fmt.Sprintf("%s was answered with a result; want error %d", method, code), a.t.since(mark))
	case m.Error.Code != code && !slices.Contains(also, m.Error.Code):
		a.fs.add(id, method, fmt.Sprintf("%s was answered with error %d; want %d", method, m.Error.Code, code), a.t.since(mark))
	}
}

// parseError sends a line that is not JSON, then (over stdio) the
// revision's noop: the parse error is wanted before its answer.
func (a *auditor) parseError(ctx context.Context) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("jsonrpc.parse-error")
	a.c.strayResponses()
	_ = a.c.p.send(pctx, []byte(`{"jsonrpc": "2.0", "id": 7, "method": "ping", `))
	if a.stdio != nil {
		if _, err := a.c.call(pctx, a.noop(), nil); err != nil {
			a.fs.add("jsonrpc.parse-error", "", "after a malformed line the server no longer answers "+a.noop()+": "+err.Error(), a.t.since(mark))
			return
		}
	} else {
		a.c.drain(pctx)
	}
	for _, m := range a.c.strayResponses() {
		if m.Error != nil && m.Error.Code == -32700 && string(m.ID) == "null" {
			return
		}
		if m.Error != nil {
			a.fs.add("jsonrpc.parse-error", "", fmt.Sprintf("malformed JSON was answered with error %d and id %s; want -32700 and a null id", m.Error.Code, m.ID), a.t.since(mark))
			return
		}
	}
	a.fs.add("jsonrpc.parse-error", "", "malformed JSON got no error -32700 with a null id", a.t.since(mark))
}

// idEcho sends the revision's noop with id and wants it back exactly.
func (a *auditor) idEcho(ctx context.Context, id json.RawMessage) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("jsonrpc.id-echo")
	a.c.strayResponses()
	method := a.noop()
	raw, _ := encodeRequest(id, method, nil, a.c.meta)
	a.c.stopOnStray = true
	_, err := a.c.roundTrip(pctx, raw, id)
	a.c.stopOnStray = false
	if err == nil {
		return
	}
	for _, m := range a.c.strayResponses() {
		a.fs.add("jsonrpc.id-echo", method, fmt.Sprintf("a request of id %s was answered with id %s", id, m.ID), a.t.since(mark))
		return
	}
	if !isHTTPStatus(err) {
		a.fs.add("jsonrpc.id-echo", method, fmt.Sprintf("a %s of id %s was not answered: %v", method, id, err), a.t.since(mark))
	}
}

// notification sends a notification no method of the specification
// names (which a receiver ignores) and wants no response to it.
func (a *auditor) notification(ctx context.Context) {
	if a.httpp != nil {
		return // over HTTP, notificationHTTP reads the 202 and its body
	}
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("jsonrpc.notification-answered")
	a.c.strayResponses()
	if err := a.c.notify(pctx, "notifications/mcplens/audit", map[string]any{}); err != nil && !isHTTPStatus(err) {
		return
	}
	if a.stdio != nil {
		if _, err := a.c.call(pctx, a.noop(), nil); err != nil {
			return
		}
	}
	for _, m := range a.c.strayResponses() {
		a.fs.add("jsonrpc.notification-answered", "", fmt.Sprintf("a notification was answered (id %s)", m.ID), a.t.since(mark))
		return
	}
}

// messages names every frame the server sent that is not well-formed
// JSON-RPC.
func (a *auditor) messages() {
	for _, r := range a.c.retyped {
		a.fs.add("jsonrpc.id-echo", "", fmt.Sprintf("a request of id %s was answered with id %s: the same value, another type", r.asked, r.got), nil)
	}
	a.fs.probe("jsonrpc.message")
	for _, f := range a.t.all() {
		if f.Problem != "" && !f.Junk {
			f := f
			a.fs.add("jsonrpc.message", "", f.Problem, []mcpsession.Frame{f})
		}
	}
}

// stdoutNoise names the lines of stdout that are not JSON-RPC.
func (a *auditor) stdoutNoise() {
	if a.stdio == nil {
		return
	}
	a.fs.probe("stdio.stdout-noise")
	if noise := a.stdio.noise(); len(noise) > 0 {
		a.fs.add("stdio.stdout-noise", "", fmt.Sprintf("stdout carried %d line(s) that are not JSON-RPC messages", len(noise)), noise)
	}
}

// stdinClose closes the server's stdin and wants it gone within the grace.
func (a *auditor) stdinClose() {
	if a.stdio == nil {
		return
	}
	a.fs.probe("stdio.stdin-close")
	if !a.stdio.closeStdin(a.o.Grace) {
		a.fs.add("stdio.stdin-close", "", fmt.Sprintf("the server was still running %s after its stdin closed", a.o.Grace), nil)
	}
}

func isObject(raw json.RawMessage) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal(raw, &v) == nil && v != nil
}

// stderrTail is the end of a stdio server's stderr, for a failed start.
func (a *auditor) stderrTail() string {
	if a.stdio == nil {
		return ""
	}
	a.stdio.mu.Lock()
	defer a.stdio.mu.Unlock()
	s := a.stdio.stderr.String()
	if s == "" {
		return ""
	}
	return "; stderr: " + model.Sanitize(s[max(0, len(s)-500):])
}
