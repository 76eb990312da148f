package loader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/model"
)

// An eraWatch sees the requests of a connection's handshake go by (the
// server/discover probes mcp-go sends, and the initialize it falls back
// to) and keeps what each got, so that the connection can say which
// revision it settled on and why; mcp-go's Initialize says only the
// revision. It also does what mcp-go leaves undone:
//   - a probe answered 401 or 403 is a server that wants a login, not one
//     that does not discover: initialize is not sent after it, and the
//     connect fails with the probe's *LoginRequiredError (or the auth
//     layer's own needs-login error);
//   - an unsupported-version answer (-32022) that lists the very revision
//     asked is asked again once, as the official SDKs do (mcp-go retries
//     only with another revision, and otherwise falls back);
//   - the initialize a probe fell back to carries the _meta of the
//     stateless revisions (its revision, clientInfo and capabilities) and,
//     over HTTP, the MCP-Protocol-Version header of the revision it asks
//     for, as every later request does;
//   - a tools/call answered with a round of more input requests than
//     MaxInputRequests is refused before mcp-go answers them
//     (crowdedRound).
type eraWatch struct {
	http bool
	// redirected, over HTTP, notes a cross-origin redirect the requests
	// followed (redirectGuard.note): a login error says it, as the
	// configured headers were not sent there.
	redirected func() string

	// learnt says the session already found that the server does not
	// discover: the initialize it goes to straight away is a fallback too.
	learnt bool

	mu       sync.Mutex
	probes   []probe
	refused  error  // a probe's 401/403, which initialize answers too
	fallback string // the revision initialize asked for, "" when not sent
}

// A probe is one server/discover and what came back.
type probe struct {
	version string // the revision it asked for
	ok      bool   // a result came back
	status  int    // the HTTP status, 0 over stdio or when none came
	code    int    // the JSON-RPC error code, 0 for none
	message string // the error's message, or the transport's error
	// supported lists the revisions an unsupported-version error named.
	supported []string
	timeout   bool // no answer within the probe's bound
}

// send passes req to next, noting what the handshake's requests got.
func (w *eraWatch) send(ctx context.Context, req transport.JSONRPCRequest,
	next func(context.Context, transport.JSONRPCRequest) (*transport.JSONRPCResponse, error)) (*transport.JSONRPCResponse, error) {
	switch req.Method {
	case string(mcp.MethodServerDiscover):
		for try := 0; ; try++ {
			slot := new(statusSlot)
			resp, err := next(context.WithValue(ctx, statusSlotKey{}, slot), req)
			if p := w.noteProbe(ctx, req, resp, err, slot); try > 0 || !slices.Contains(p.supported, p.version) {
				return resp, err
			}
		}
	case string(mcp.MethodInitialize):
		w.mu.Lock()
		refused, probed := w.refused, len(w.probes) > 0 || w.learnt
		w.fallback = paramString(req.Params, "protocolVersion")
		w.mu.Unlock()
		if refused != nil {
			return nil, refused
		}
		if probed && w.fallback != "" {
			req = fallbackRequest(req, w.fallback, w.http)
		}
	}
	resp, err := next(ctx, req)
	if err == nil {
		if err := crowdedRound(req, resp); err != nil { // rounds.go
			return nil, err
		}
	}
	return resp, err
}

// fallbackRequest is the initialize a probe fell back to, at revision:
// with the stateless _meta (the revision, the clientInfo and capabilities
// the request declares) and, over HTTP, the MCP-Protocol-Version header.
func fallbackRequest(req transport.JSONRPCRequest, revision string, overHTTP bool) transport.JSONRPCRequest {
	params := paramsMap(req.Params)
	if params != nil {
		meta := map[string]json.RawMessage{}
		_ = json.Unmarshal(params["_meta"], &meta)
		meta[mcp.MetaKeyProtocolVersion], _ = json.Marshal(revision)
		if info, ok := params["clientInfo"]; ok {
			meta[mcp.MetaKeyClientInfo] = info
		}
		if caps, ok := params["capabilities"]; ok {
			meta[mcp.MetaKeyClientCapabilities] = caps
		}
		params["_meta"], _ = json.Marshal(meta)
		req.Params = params
	}
	if overHTTP {
		req.Header = req.Header.Clone()
		if req.Header == nil {
			req.Header = http.Header{}
		}
		req.Header.Set(transport.HeaderKeyProtocolVersion, revision)
	}
	return req
}

// noteProbe keeps what one server/discover got, and returns it.
func (w *eraWatch) noteProbe(ctx context.Context, req transport.JSONRPCRequest, resp *transport.JSONRPCResponse, err error, slot *statusSlot) probe {
	p := probe{version: metaString(req.Params, mcp.MetaKeyProtocolVersion), status: slot.status}
	switch {
	case err != nil:
		p.message = tidy(err).Error()
		p.timeout = errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil
	case resp.Error != nil:
		p.code, p.message = resp.Error.Code, resp.Error.Message
		if resp.Error.Code == model.CodeUnsupportedProtocolVersion {
			p.supported = supportedOf(resp.Error.Data)
		}
	default:
		p.ok = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.probes = append(w.probes, p)
	switch {
	case needsLogin(err) != nil:
		w.refused = err
	case p.status == http.StatusUnauthorized || p.status == http.StatusForbidden:
		lerr := &LoginRequiredError{Method: string(mcp.MethodServerDiscover), Status: p.status, Challenge: slot.challenge}
		if w.redirected != nil {
			lerr.Note = w.redirected()
		}
		w.refused = lerr
	}
	return p
}

// supportedOf reads the revisions an unsupported-version error's data
// lists, keeping only strings shaped as revisions, at most 16.
func supportedOf(data any) []string {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil
	}
	var d struct {
		Supported []any `json:"supported"`
	}
	_ = json.Unmarshal(raw, &d)
	var out []string
	for _, v := range d.Supported {
		if s, ok := v.(string); ok && len(out) < 16 {
			if _, err := model.ParseRevision(s); err == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

// settledHow says which revision a connection settled on, got, how and
// why, in one phrase every view and report prints: "2026-07-28 via
// server/discover", "2025-11-25 via initialize: server/discover answered
// error -32601 (method not found)". asked is the revision the connection
// asked for; forced says --protocol chose it; learnt that an earlier
// connect of the session found the server does not discover.
func (w *eraWatch) settledHow(asked, got string, forced, learnt bool) string {
	return got + " " + w.how(asked, got, forced, learnt)
}

func (w *eraWatch) how(asked, got string, forced, learnt bool) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	why := ""
	if forced {
		why = " (--protocol " + asked + ")"
	}
	if mcp.IsModernProtocol(got) {
		for _, p := range w.probes {
			if !p.ok && p.code == model.CodeUnsupportedProtocolVersion {
				return fmt.Sprintf("via server/discover, after the server refused %s (-32022 unsupported protocol version; it supports %s)%s",
					orUnknown(p.version), orUnknown(strings.Join(p.supported, ", ")), why)
			}
		}
		return "via server/discover" + why
	}
	if learnt {
		return "via initialize: the server did not discover when first connected this session" + why
	}
	if !model.EraOf(asked).Discover {
		return "via initialize, asked for " + asked + why
	}
	if len(w.probes) == 0 {
		return "via initialize" + why
	}
	return "via initialize: " + w.probes[len(w.probes)-1].why() + why
}

// why says why a probe sent the connection to initialize.
func (p probe) why() string {
	switch {
	case p.timeout:
		return "server/discover got no answer within the probe's bound"
	case p.code == model.CodeUnsupportedProtocolVersion && slices.Contains(p.supported, p.version):
		return fmt.Sprintf("server/discover answered -32022 (unsupported protocol version) to %s again, though it lists %s",
			p.version, strings.Join(p.supported, ", "))
	case p.code == model.CodeUnsupportedProtocolVersion:
		return fmt.Sprintf("server/discover answered -32022 (unsupported protocol version) listing %s, none of which mcplens speaks statelessly",
			orUnknown(strings.Join(p.supported, ", ")))
	case p.code != 0 && p.status >= 400:
		return fmt.Sprintf("server/discover answered HTTP %d, %s", p.status, model.DescribeError(p.code, p.message))
	case p.code != 0:
		return "server/discover answered " + model.DescribeError(p.code, p.message)
	case p.status >= 400:
		return fmt.Sprintf("server/discover answered HTTP %d without a modern error", p.status)
	}
	return "server/discover failed: " + p.message
}

func orUnknown(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// A LoginRequiredError is a server that answered a request of the
// handshake (server/discover, before anything else) with 401 or 403: it
// wants a login, whatever revision it speaks. The auth layer, when there
// is one, turns such an answer into its own needs-login error first.
type LoginRequiredError struct {
	Method    string // the request refused
	Status    int    // 401 or 403
	Challenge string // the WWW-Authenticate header, as sent (not shown)
	Note      string // a cross-origin redirect followed on the way, or ""
}

func (e *LoginRequiredError) Error() string {
	s := fmt.Sprintf("%s answered HTTP %d %s: the server needs a login (log in with mcplens login CONFIG SERVER, or --login, or give a token in the config's headers)",
		e.Method, e.Status, http.StatusText(e.Status))
	if e.Note != "" {
		s += " (" + e.Note + ")"
	}
	return s
}

// NeedsLogin marks the error as one a login answers (needsLogin).
func (e *LoginRequiredError) NeedsLogin() bool { return true }

// A statusSlot carries the HTTP status of the answer to one request, and
// its challenge, back from the tap to the eraWatch.
type statusSlot struct {
	status    int
	challenge string
}

type statusSlotKey struct{}

// noteStatus tells the request's statusSlot, if it has one, of the
// answer's status line. Called by the tap on every answer.
func noteStatus(req *http.Request, resp *http.Response) {
	if slot, ok := req.Context().Value(statusSlotKey{}).(*statusSlot); ok {
		slot.status = resp.StatusCode
		slot.challenge = resp.Header.Get("WWW-Authenticate")
	}
}

// paramString reads the string member name of a request's params (mcp-go
// hands them as a struct or a map).
func paramString(params any, name string) string {
	m := paramsMap(params)
	var s string
	_ = json.Unmarshal(m[name], &s)
	return s
}

// metaString reads the string member name of a request's params._meta.
func metaString(params any, name string) string {
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(paramsMap(params)["_meta"], &meta)
	var s string
	_ = json.Unmarshal(meta[name], &s)
	return s
}

func paramsMap(params any) map[string]json.RawMessage {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return m
}
