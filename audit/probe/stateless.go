package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"

	"github.com/mcplens/mcplens/mcpsession"
)

// The per-request fields of a stateless revision's _meta: the first two
// required on every request, clientInfo optional.
const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
	metaServerInfo   = "io.modelcontextprotocol/serverInfo"
)

// removedMethods are the methods of the handshake revisions that
// 2026-07-28 removed: a request of that revision naming one names a
// method the server does not implement.
var removedMethods = []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}

// statelessHTTPChecks are the HTTP checks of the stateless revisions.
var statelessHTTPChecks = []string{"stateless.meta-required", "stateless.removed-methods"}

// statelessHTTP probes the stateless revision's rules of a request over
// HTTP. why is the control request's failure ("" when it was served): a
// refusal of a request that is also refused well-formed proves nothing.
func (a *auditor) statelessHTTP(ctx context.Context, why string) {
	switch {
	case !a.stateless:
		a.skipAll("a check of the stateless revisions (2026-07-28); the session is on "+a.res.Revision, statelessHTTPChecks...)
		return
	case why != "":
		a.skipAll(why, statelessHTTPChecks...)
		return
	}
	a.metaRequired(ctx)
	for _, m := range removedMethods {
		a.notFound(ctx, "stateless.removed-methods", m, "a method 2026-07-28 removed")
	}
}

// metaRequired sends the revision's noop without _meta, then without each
// required field of it, and wants each refused 400 with -32602; then
// without clientInfo alone, and wants it served.
func (a *auditor) metaRequired(ctx context.Context) {
	id := "stateless.meta-required"
	a.fs.probe(id)
	without := func(key string) map[string]any {
		m := maps.Clone(a.c.meta)
		delete(m, key)
		return m
	}
	for _, tc := range []struct {
		what string
		meta map[string]any
	}{
		{"no _meta", nil},
		{"a _meta without " + metaVersion, without(metaVersion)},
		{"a _meta without " + metaCapabilities, without(metaCapabilities)},
	} {
		a.wantHTTPError(ctx, id, a.noop(), "sent with "+tc.what, tc.meta, http.StatusBadRequest, -32602)
	}
	mark := a.t.mark()
	reqID, ex, resp, err := a.post(ctx, a.noop(), without(metaClientInfo))
	what := a.noop() + " sent with a _meta without " + metaClientInfo + " (optional)"
	switch {
	case err != nil && ex.status == 0:
		a.fs.add(id, metaClientInfo, fmt.Sprintf("%s was not answered: %v", what, err), a.t.since(mark))
	case ex.status/100 != 2 || resp == nil || resp.Error != nil || resp.Result == nil:
		a.fs.add(id, metaClientInfo, fmt.Sprintf("%s was answered HTTP %d with %s; want it served", what, ex.status, answerKind(resp)), a.t.since(mark))
	case !sameID(resp.ID, reqID):
		a.fs.add(id, metaClientInfo, fmt.Sprintf("%s was answered with id %s; want %s", what, resp.ID, reqID), a.t.since(mark))
	}
}

// notFound sends method, which the server does not implement (what says
// why), with the revision's _meta and headers, and wants HTTP 404 with
// error -32601 and its id.
func (a *auditor) notFound(ctx context.Context, id, method, what string) {
	a.fs.probe(id)
	a.wantHTTPError(ctx, id, method, "("+what+")", a.c.meta, http.StatusNotFound, -32601)
}

// wantHTTPError POSTs method with meta as its _meta and wants HTTP status
// with error code and the request's id.
func (a *auditor) wantHTTPError(ctx context.Context, id, method, what string, meta map[string]any, status, code int) {
	mark := a.t.mark()
	reqID, ex, resp, err := a.post(ctx, method, meta)
	what = method + " " + what
	switch {
	case err != nil && ex.status == 0:
		a.fs.add(id, method, fmt.Sprintf("%s was not answered: %v", what, err), a.t.since(mark))
	case ex.status != status || resp == nil || resp.Error == nil || resp.Error.Code != code:
		a.fs.add(id, method, fmt.Sprintf("%s was answered HTTP %d with %s; want HTTP %d with error %d", what, ex.status, answerKind(resp), status, code), a.t.since(mark))
	case !sameID(resp.ID, reqID):
		a.fs.add(id, method, fmt.Sprintf("%s was answered with error %d and id %s; want id %s", what, code, resp.ID, reqID), a.t.since(mark))
	}
}

// post POSTs method with empty params and meta as their _meta (none when
// nil), a fresh id of its own (a string every other time, so that both
// kinds are echoed), and the revision's headers, bounded by the probe's
// deadline and the body limit. It returns the id sent, the exchange and
// the answer among the messages the body carried (nil: none).
func (a *auditor) post(ctx context.Context, method string, meta map[string]any) (json.RawMessage, exchange, *message, error) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	a.c.id++
	reqID := json.RawMessage(strconv.Itoa(a.c.id))
	if a.c.id%2 == 0 {
		reqID = json.RawMessage(strconv.Quote("mcplens-audit-" + strconv.Itoa(a.c.id)))
	}
	params := map[string]any{}
	if meta != nil {
		params["_meta"] = meta
	}
	body, err := encodeRequest(reqID, method, params, nil)
	if err != nil {
		return reqID, exchange{}, nil, err
	}
	ex, err := a.httpp.do(pctx, http.MethodPost, a.httpp.standardHeaders(body), "", body)
	return reqID, ex, answerOf(ex.msgs), err
}

// answerOf is the first response among msgs (a stream may carry
// notifications before it), nil when none.
func answerOf(msgs [][]byte) *message {
	for _, raw := range msgs {
		if m, ok := decode(raw); ok && m.response() {
			return &m
		}
	}
	return nil
}

// answerKind says what a response was: a result, an error and its code,
// or none.
func answerKind(m *message) string {
	switch {
	case m == nil:
		return "no JSON-RPC response"
	case m.Error != nil:
		return fmt.Sprintf("error %d", m.Error.Code)
	}
	return "a result"
}

// serverInfo wants the server/discover result m to name the server in its
// _meta, as a stateless revision's servers should.
func (a *auditor) serverInfo(m message, evidence []mcpsession.Frame) {
	a.fs.probe("lifecycle.server-info")
	var r struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(m.Result, &r)
	var info struct {
		Name    *string `json:"name"`
		Version *string `json:"version"`
	}
	raw, ok := r.Meta[metaServerInfo]
	if ok && json.Unmarshal(raw, &info) == nil && info.Name != nil && info.Version != nil {
		return
	}
	a.fs.add("lifecycle.server-info", "server/discover", "the server/discover result has no "+metaServerInfo+" with a string name and version in its _meta", evidence)
}

// futureRevision is a revision no server of today supports.
const futureRevision = "2099-01-01"

// unsupportedVersion sends server/discover asking for futureRevision in
// its _meta (and, over HTTP, its header, so that the two agree) and wants
// an UnsupportedProtocolVersionError: -32022, data.supported among the
// versions server/discover listed, data.requested the revision asked; over
// HTTP, status 400.
func (a *auditor) unsupportedVersion(ctx context.Context) {
	const id = "stateless.unsupported-version"
	if !a.stateless {
		a.fs.skip(id, "a check of the stateless revisions (2026-07-28); the session is on "+a.res.Revision)
		return
	}
	a.fs.probe(id)
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	meta := maps.Clone(a.c.meta)
	meta[metaVersion] = futureRevision
	a.c.id++
	reqID := json.RawMessage(strconv.Itoa(a.c.id))
	body, _ := encodeRequest(reqID, "server/discover", map[string]any{"_meta": meta}, nil)
	what := "server/discover asking for " + futureRevision
	var resp *message
	status := 0
	if a.httpp != nil {
		headers := a.httpp.standardHeaders(body)
		headers["Mcp-Protocol-Version"] = futureRevision
		ex, err := a.httpp.do(pctx, http.MethodPost, headers, "", body)
		if err != nil && ex.status == 0 {
			a.fs.add(id, "server/discover", fmt.Sprintf("%s was not answered: %v", what, err), a.t.since(mark))
			return
		}
		resp, status = answerOf(ex.msgs), ex.status
	} else {
		m, err := a.c.roundTrip(pctx, body, reqID)
		if err != nil {
			a.fs.add(id, "server/discover", fmt.Sprintf("%s was not answered: %v", what, err), a.t.since(mark))
			return
		}
		resp = &m
	}
	if p := unsupportedProblem(resp, status, reqID, a.supported); p != "" {
		a.fs.add(id, "server/discover", what+" "+p, a.t.since(mark))
	}
}

// unsupportedProblem says how resp (answered with HTTP status, 0 over
// stdio) is no UnsupportedProtocolVersionError for futureRevision, ""
// when it is one.
func unsupportedProblem(resp *message, status int, reqID json.RawMessage, supported []string) string {
	if resp == nil || resp.Error == nil || resp.Error.Code != -32022 {
		if status != 0 {
			return fmt.Sprintf("was answered HTTP %d with %s; want HTTP 400 with error -32022 (UnsupportedProtocolVersionError)", status, answerKind(resp))
		}
		return fmt.Sprintf("was answered with %s; want error -32022 (UnsupportedProtocolVersionError)", answerKind(resp))
	}
	var e struct {
		Error struct {
			Data struct {
				Supported []string `json:"supported"`
				Requested *string  `json:"requested"`
			} `json:"data"`
		} `json:"error"`
	}
	_ = json.Unmarshal(resp.raw, &e)
	d := e.Error.Data
	switch {
	case status != 0 && status != http.StatusBadRequest:
		return fmt.Sprintf("was answered error -32022 with HTTP %d; want 400", status)
	case len(d.Supported) == 0:
		return "was answered error -32022 whose data lists no supported versions"
	case d.Requested == nil || *d.Requested != futureRevision:
		return "was answered error -32022 whose data does not echo the requested version"
	case !sameID(resp.ID, reqID):
		return fmt.Sprintf("was answered with id %s; want %s", resp.ID, reqID)
	}
	for _, v := range d.Supported {
		if !slices.Contains(supported, v) {
			return fmt.Sprintf("was answered error -32022 listing %q as supported, which server/discover does not list", v)
		}
	}
	return ""
}
