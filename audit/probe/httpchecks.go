package probe

import (
	"context"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// foreignOrigin is the Origin and Host a DNS-rebinding page would send.
const foreignOrigin = "http://mcplens-audit.invalid"

// httpChecks probes the streamable HTTP transport's rules, the session's
// end (DELETE) last.
func (a *auditor) httpChecks(ctx context.Context) {
	p := a.httpp
	sid := p.sessionID()
	why := a.control(ctx)
	if why != "" {
		a.skipAll(why, refusalChecks...)
	} else {
		a.refusals(ctx, sid)
	}
	if a.stateless {
		a.mcpMethod(ctx)
	} else {
		a.fs.skip("http.mcp-method", "a check of the stateless revisions (2026-07-28); the session is on "+a.res.Revision)
	}
	a.statelessHTTP(ctx, why) // stateless.go
	a.notificationHTTP(ctx)
	// get first: a server may keep one GET stream a session (409 for a
	// second) and see the probe's own close late; streams then POSTs
	// without one.
	a.get(ctx)
	if why != "" {
		a.fs.skip("http.multiple-streams", why)
	} else {
		a.streams(ctx)
	}
	if sid != "" {
		a.delete(ctx)
	}
}

// refusalChecks are the checks that want a request refused for one header:
// judged only once the same request without it is served.
var refusalChecks = []string{"http.origin", "http.host", "http.protocol-version", "http.accept", "http.session-unknown", "http.session-missing"}

// control sends the revision's noop as a correct client does and says why
// the refusal checks cannot be judged ("" when it was served 2xx with its
// answer): a server that refuses the plain request refuses every probe of
// them for another reason than theirs.
func (a *auditor) control(ctx context.Context) string {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	body := a.noopBody()
	ex, err := a.httpp.do(pctx, http.MethodPost, a.httpp.standardHeaders(body), "", body)
	switch {
	case err != nil && ex.status == 0:
		return fmt.Sprintf("%s sent as a correct client sends it was not answered (%v): a refusal would prove nothing", a.noop(), err)
	case ex.status/100 != 2 || len(ex.msgs) == 0:
		return fmt.Sprintf("%s sent as a correct client sends it was answered HTTP %d without its answer: a refusal would prove nothing", a.noop(), ex.status)
	}
	return ""
}

// refusals sends the revision's noop, each time with one header a correct
// client never sends, and wants it refused.
func (a *auditor) refusals(ctx context.Context, sid string) {
	p := a.httpp
	a.refused(ctx, "http.origin", map[string]string{"Origin": foreignOrigin}, "", "a foreign Origin", 400, 499)
	if u, err := url.Parse(a.spec.URL); err == nil && isLoopback(u.Hostname()) {
		a.refused(ctx, "http.host", nil, "mcplens-audit.invalid:"+portOf(u), "a foreign Host", 400, 499)
	} else {
		a.fs.skip("http.host", "the server is not on loopback")
	}
	if a.res.Revision >= model.Revision20250618 { // the header came with 2025-06-18
		a.refused(ctx, "http.protocol-version", map[string]string{"Mcp-Protocol-Version": unknownRevision}, "", "MCP-Protocol-Version "+unknownRevision, 400, 400)
	} else {
		a.fs.skip("http.protocol-version", "the MCP-Protocol-Version header came with 2025-06-18; the session is on "+a.res.Revision)
	}
	a.refused(ctx, "http.accept", map[string]string{"Accept": "text/plain"}, "", "Accept: text/plain", 406, 406)
	if bad := p.badType; len(bad) > 0 {
		a.fs.add("http.accept", "", "a request was answered 2xx with a body that is neither application/json nor text/event-stream", bad)
	}
	if sid == "" {
		a.skipAll("the server issued no Mcp-Session-Id (stateless)", "http.session-id", "http.session-unknown", "http.session-missing", "http.delete", "http.delete-status")
	} else {
		a.fs.probe("http.session-id")
		if strings.IndexFunc(sid, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0 {
			a.fs.add("http.session-id", "", fmt.Sprintf("the Mcp-Session-Id %q holds characters outside visible ASCII", sid), nil)
		}
		a.refused(ctx, "http.session-unknown", map[string]string{"Mcp-Session-Id": "mcplens-audit-unknown-session"}, "", "an Mcp-Session-Id never issued", 404, 404)
		a.refused(ctx, "http.session-missing", map[string]string{"Mcp-Session-Id": ""}, "", "no Mcp-Session-Id", 400, 400)
	}
}

// noopBody is the revision's noop request, numbered.
func (a *auditor) noopBody() []byte {
	a.c.id++
	b, _ := encodeRequest([]byte(fmt.Sprint(a.c.id)), a.noop(), nil, a.c.meta)
	return b
}

// refused POSTs the revision's noop with its standard headers, set's
// headers over them (and host), and wants a status in [lo, hi].
func (a *auditor) refused(ctx context.Context, id string, set map[string]string, host, what string, lo, hi int) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe(id)
	body := a.noopBody()
	headers := a.httpp.standardHeaders(body)
	if headers == nil {
		headers = map[string]string{}
	}
	for k, v := range set {
		headers[k] = v
	}
	ex, err := a.httpp.do(pctx, http.MethodPost, headers, host, body)
	switch {
	case err != nil && ex.status == 0:
		a.fs.add(id, "", fmt.Sprintf("a request with %s was not answered: %v", what, err), a.t.since(mark))
	case ex.status < lo || ex.status > hi:
		want := fmt.Sprint(lo)
		if hi != lo {
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		a.fs.add(id, "", fmt.Sprintf("a request with %s was answered HTTP %d; want %s", what, ex.status, want), a.t.since(mark))
	}
}

// notificationHTTP POSTs a notification and wants 202 with no body.
func (a *auditor) notificationHTTP(ctx context.Context) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("http.notification")
	raw, _ := encodeRequest(nil, "notifications/mcplens/audit", map[string]any{}, a.c.meta)
	a.fs.probe("jsonrpc.notification-answered")
	ex, err := a.httpp.do(pctx, http.MethodPost, a.httpp.standardHeaders(raw), "", raw)
	switch {
	case err != nil && ex.status == 0:
		a.fs.add("http.notification", "", "a notification was not answered: "+err.Error(), a.t.since(mark))
	case ex.status != http.StatusAccepted:
		a.fs.add("http.notification", "", fmt.Sprintf("a notification was answered HTTP %d; want 202 Accepted", ex.status), a.t.since(mark))
	case len(ex.msgs) > 0:
		a.fs.add("jsonrpc.notification-answered", "", "a notification's 202 carried a message", a.t.since(mark))
	}
}

// get opens the GET stream and wants an event stream or 405; then, where
// events carried ids, resumes it with Last-Event-ID.
func (a *auditor) get(ctx context.Context) {
	for _, probe := range []struct {
		id  string
		set map[string]string
	}{
		{"http.get", map[string]string{"Accept": "text/event-stream"}},
		{"http.resume", map[string]string{"Accept": "text/event-stream", "Last-Event-Id": "0"}},
	} {
		if probe.id == "http.resume" && !a.httpp.eventIDs {
			a.fs.skip("http.resume", "no event carried an id")
			continue
		}
		pctx, cancel := a.probeCtx(ctx)
		mark := a.t.mark()
		a.fs.probe(probe.id)
		ex, err := a.httpp.do(pctx, http.MethodGet, probe.set, "", nil)
		cancel()
		ct, _, _ := mime.ParseMediaType(ex.header.Get("Content-Type"))
		switch {
		case err != nil && ex.status == 0:
			a.fs.add(probe.id, "GET", "GET was not answered: "+err.Error(), a.t.since(mark))
		case ex.status == http.StatusMethodNotAllowed:
		case ex.status == http.StatusOK && ct == "text/event-stream":
		case probe.id == "http.resume" && ex.status < 500:
		default:
			a.fs.add(probe.id, "GET", fmt.Sprintf("GET was answered HTTP %d %s; want an event stream or 405", ex.status, ct), a.t.since(mark))
		}
	}
}

// delete ends the session and wants it gone (404 after) or refused (405).
func (a *auditor) delete(ctx context.Context) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("http.delete-status")
	ex, err := a.httpp.do(pctx, http.MethodDelete, nil, "", nil)
	switch {
	case err != nil && ex.status == 0:
		a.fs.add("http.delete-status", "DELETE", "DELETE was not answered: "+err.Error(), a.t.since(mark))
		return
	case ex.status == http.StatusMethodNotAllowed:
		a.fs.skip("http.delete", "the server refuses DELETE (405), as it may")
		return
	case ex.status < 200 || ex.status > 299:
		a.fs.add("http.delete-status", "DELETE", fmt.Sprintf("DELETE was answered HTTP %d; want 2xx or 405", ex.status), a.t.since(mark))
		return
	}
	a.fs.probe("http.delete")
	body := a.noopBody()
	after, err := a.httpp.do(pctx, http.MethodPost, a.httpp.standardHeaders(body), "", body)
	if err == nil && after.status != http.StatusNotFound {
		a.fs.add("http.delete", "DELETE", fmt.Sprintf("after DELETE, a request with the ended session was answered HTTP %d; want 404", after.status), a.t.since(mark))
	}
}

// unknownVersion asks for a revision that does not exist, on a session
// of its own.
func (a *auditor) unknownVersion(ctx context.Context) {
	t := &tape{server: a.spec.Label}
	p := a.newHTTPPeer(t)
	a.unknownVersionOver(ctx, &client{p: p, t: t}, t)
	if p.sessionID() != "" {
		pctx, cancel := a.probeCtx(ctx)
		defer cancel()
		_, _ = p.do(pctx, http.MethodDelete, nil, "", nil)
	}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// mcpMethod sends a request whose Mcp-Method header names another method
// than its body, and wants 400.
func (a *auditor) mcpMethod(ctx context.Context) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("http.mcp-method")
	a.c.id++
	body, _ := encodeRequest([]byte(fmt.Sprint(a.c.id)), "server/discover", nil, a.c.meta)
	ex, err := a.httpp.do(pctx, http.MethodPost, map[string]string{"Mcp-Method": "tools/list"}, "", body)
	switch {
	case err != nil && ex.status == 0:
		a.fs.add("http.mcp-method", "", "a request with a mismatched Mcp-Method was not answered: "+err.Error(), a.t.since(mark))
	case ex.status != http.StatusBadRequest:
		a.fs.add("http.mcp-method", "", fmt.Sprintf("server/discover sent with Mcp-Method: tools/list was answered HTTP %d; want 400", ex.status), a.t.since(mark))
	}
	if !a.declares("resources") {
		return
	}
	// Mcp-Name must match the body's params.uri as Mcp-Method its method.
	mark = a.t.mark()
	a.c.id++
	body, _ = encodeRequest([]byte(fmt.Sprint(a.c.id)), "resources/read", map[string]any{"uri": "mcplens-audit://a"}, a.c.meta)
	ex, err = a.httpp.do(pctx, http.MethodPost, map[string]string{"Mcp-Method": "resources/read", "Mcp-Name": "mcplens-audit://b"}, "", body)
	switch {
	case err != nil && ex.status == 0:
		a.fs.add("http.mcp-method", "Mcp-Name", "a request with a mismatched Mcp-Name was not answered: "+err.Error(), a.t.since(mark))
	case ex.status != http.StatusBadRequest:
		a.fs.add("http.mcp-method", "Mcp-Name", fmt.Sprintf("resources/read of mcplens-audit://a sent with Mcp-Name: mcplens-audit://b was answered HTTP %d; want 400", ex.status), a.t.since(mark))
	}
}
