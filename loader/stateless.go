package loader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// The stateless revisions (2026-07-28 on) beyond the handshake: the
// revision a session forces (--protocol), a server that speaks only them,
// the per-request log level and resource subscriptions through
// subscriptions/listen.

// A watchedIO is mcp-go's stdio transport with the era watch on its
// requests.
type watchedIO struct {
	*transport.Stdio
	era *eraWatch
}

func (w watchedIO) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return w.era.send(ctx, req, w.Stdio.SendRequest)
}

// SetProtocol makes revision the one every server is asked for from its
// next connect on (Reconnect), whatever the handshake's; "" gives each
// handshake its own again. It is --protocol, switched in the interface.
func (s *Session) SetProtocol(revision string) {
	s.protocol.Store(&revision)
}

// Protocol is the revision SetProtocol (or Options.Protocol) forces, ""
// for none.
func (s *Session) Protocol() string {
	if p := s.protocol.Load(); p != nil {
		return *p
	}
	return ""
}

// handshakeFor is h as the session sends it: at the forced revision, if
// any.
func (s *Session) handshakeFor(h model.Handshake) model.Handshake {
	return h.WithRevision(s.Protocol())
}

// facts returns the facts of the handshake's answer, with how the
// connection settled on its revision.
func (c *conn) facts(init *mcp.InitializeResult) mcpsession.ServerFacts {
	f := factsOf(init)
	f.Settled, f.ToolsCache = c.settled, c.lister.cacheHint()
	return f
}

// modernCheck bounds the server/discover a failed initialize is followed
// by (initFailed).
const modernCheck = time.Second

// initFailed is the error of a failed handshake: err, or, when the
// handshake asked with initialize and the server turns out to speak only
// the stateless revisions, a *StatelessOnlyError saying so (rather than
// the legacy SSE transport mcp-go's error points to).
func (c *conn) initFailed(ctx context.Context, cl *client.Client, h model.Handshake, err error) error {
	if h.Era().Discover || needsLogin(err) != nil || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return err
	}
	var limit *LimitError
	var refused *RefusedError
	if errors.As(err, &limit) || errors.As(err, &refused) || errors.Is(err, transport.ErrTransportClosed) {
		return err
	}
	check, cancel := context.WithTimeout(ctx, modernCheck)
	defer cancel()
	supported, ok := modernServer(check, cl.GetTransport(), h)
	if !ok {
		return err
	}
	return &StatelessOnlyError{Asked: h.ProtocolVersion, Supported: supported, Err: err}
}

// A StatelessOnlyError is a server that refused initialize because it
// speaks only the stateless revisions (2026-07-28 on): it answered
// server/discover, which a client asking with initialize never sends.
type StatelessOnlyError struct {
	Asked     string   // the revision initialize asked for
	Supported []string // the revisions the server named, if it did
	Err       error    // initialize's own error
}

func (e *StatelessOnlyError) Error() string {
	supports := model.Revision20260728
	if len(e.Supported) > 0 {
		supports = strings.Join(e.Supported, ", ")
	}
	refused := tidy(e.Err).Error()
	if errors.Is(e.Err, transport.ErrLegacySSEServer) {
		refused = "the server refused initialize with an HTTP 4xx" // mcp-go's error calls it a legacy SSE server
	}
	return fmt.Sprintf("%s; it speaks only the stateless protocol (it supports %s), not %s, which asks with initialize: "+
		"connect with --protocol %s, or as mcplens itself (--client mcplens)",
		refused, supports, e.Asked, model.Revision20260728)
}

// requestMeta is the _meta of one of the lister's requests on a stateless
// connection: the connection's, with the log level set on the server
// (2026-07-28 asks for log messages per request, in _meta).
func (l *lister) requestMeta() map[string]any {
	level := l.level.Load()
	if level == nil || *level == "" {
		return l.meta
	}
	meta := make(map[string]any, len(l.meta)+1)
	for k, v := range l.meta {
		meta[k] = v
	}
	meta[mcp.MetaKeyLogLevel] = *level
	return meta
}

// resubscribe subscribes to uri (or unsubscribes, !on) on a stateless
// connection, which has no resources/subscribe: the subscriptions/listen
// stream is opened again with the URIs subscribed to, and replaces the
// last one. It reports false for a connection that ran initialize.
func (s *Session) resubscribe(server, uri string, on bool) bool {
	c := s.conn(server)
	if c == nil {
		return false
	}
	c.mu.Lock()
	cl := c.client
	c.mu.Unlock()
	if cl == nil || !mcp.IsModernProtocol(cl.ProtocolVersion()) {
		return false
	}
	c.offers.mark(uri, on)
	c.listen(cl)
	return true
}

// mark records uri as subscribed to (on) or not.
func (o *offerState) mark(uri string, on bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if on {
		o.subscribed[uri] = true
	} else {
		delete(o.subscribed, uri)
	}
}

// subscriptions lists the URIs subscribed to, sorted.
func (o *offerState) subscriptions() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	uris := make([]string, 0, len(o.subscribed))
	for uri := range o.subscribed {
		uris = append(uris, uri)
	}
	slices.Sort(uris)
	return uris
}

// modernServer reports whether a failed initialize's server speaks only the
// stateless revisions: asked server/discover at the current revision, it
// answers with a result or a modern error (-32020 to -32022). It is asked
// only after initialize failed, so that a failure's hint points the right
// way (connect at 2026-07-28) rather than at the legacy SSE transport.
func modernServer(ctx context.Context, tr transport.Interface, h model.Handshake) (supported []string, ok bool) {
	h.ProtocolVersion = model.Revision20260728
	params := map[string]any{"_meta": stateless(h, model.Revision20260728)}
	req := rpcRequest(mcp.MethodServerDiscover, "era-check", params)
	if hc, isHTTP := tr.(transport.HTTPConnection); isHTTP {
		hc.SetProtocolVersion(model.Revision20260728)
		defer hc.SetProtocolVersion("")
	}
	resp, err := tr.SendRequest(ctx, req)
	if err != nil || resp == nil {
		return nil, false
	}
	if resp.Error != nil {
		code := resp.Error.Code
		if code == model.CodeUnsupportedProtocolVersion {
			return supportedOf(resp.Error.Data), true
		}
		return nil, code == model.CodeHeaderMismatch || code == model.CodeMissingClientCapability
	}
	var res struct {
		Supported []string `json:"supportedVersions"`
	}
	if json.Unmarshal(resp.Result, &res) != nil {
		return nil, false
	}
	return slices.DeleteFunc(res.Supported, func(s string) bool { _, err := model.ParseRevision(s); return err != nil }), true
}

// answeredError is a JSON-RPC error answer as mcplens shows it, its code
// named (model.DescribeError): "server answered error -32022 (unsupported
// protocol version): ...", or "" when response holds no error.
func answeredError(response []byte) string {
	raw, found, _ := jsonMember(response, "error")
	if !found {
		return ""
	}
	var e struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Code == nil {
		return ""
	}
	return "server answered " + model.DescribeError(*e.Code, e.Message)
}

// isRefused reports whether err is an answer the protocol refuses.
func isRefused(err error) bool {
	var refused *RefusedError
	return errors.As(err, &refused)
}

// noteCache keeps the caching hints of a tools/list's first page, which
// the stateless revisions put on every list result.
func (l *lister) noteCache(method mcp.MCPMethod, cursor *string, result []byte) {
	if method == mcp.MethodToolsList && cursor == nil {
		h := mcpsession.CacheHintOf(result, time.Now())
		l.toolsCache.Store(&h)
	}
}

// cacheHint is the caching hints of the last tools/list, the zero hint
// before one.
func (l *lister) cacheHint() mcpsession.CacheHint {
	if h := l.toolsCache.Load(); h != nil {
		return *h
	}
	return mcpsession.CacheHint{}
}
