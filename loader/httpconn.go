package loader

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// transport names the server's transport for display.
func (c *conn) transport() string {
	if c.spec.Transport == "" {
		return config.TransportStdio
	}
	return c.spec.Transport
}

// dial builds the client of a streamable HTTP or SSE server, its HTTP
// traffic tapped (the conn observes its frames), and returns it, or nil
// when it could not (reported). Nothing goes over the network until
// handshake.
func (c *conn) dial() *client.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.DisableCompression = true // the tap asks for gzip and inflates it, within the limits
	var next http.RoundTripper = base
	if auth := c.s.opts.HTTPAuth; auth != nil {
		// Under the tap: the token is added after the frame is kept, and
		// only the answer to the request sent with it comes back.
		next = auth(c.spec, base)
		if r, ok := next.(refuser); ok {
			c.mu.Lock()
			c.auth = r
			c.mu.Unlock()
		}
	}
	tap := &httpTap{next: next, obs: c, limits: c.s.opts.Limits, lost: c.lose, schemaOf: c.inputSchema}
	c.era = &eraWatch{http: true}
	headers := c.headers()
	tap.guard = &redirectGuard{headers: headerNames(c.spec.Headers, c.hs.Headers)}
	c.era.redirected = tap.guard.note
	hc := &http.Client{Transport: tap, CheckRedirect: tap.guard.check}

	var tr transport.Interface
	if c.spec.Transport == config.TransportSSE {
		sse, err := transport.NewSSE(c.spec.URL,
			transport.WithHTTPClient(hc),
			transport.WithHeaders(headers),
			transport.WithSSELogger(c.s.opts.Logger),
			transport.WithEndpointTimeout(c.timeout))
		if err != nil {
			c.fail(fmt.Sprintf("connecting to %s: %v", model.RedactURL(c.spec.URL), err), "")
			return nil
		}
		tr = boundedSSE{sse, tap, c.era}
	} else {
		// Continuous listening opens the GET stream that carries
		// notifications, tools/list_changed among them, between requests.
		// It is deprecated for protocol 2026-07-28, which dropped that
		// stream for subscriptions/listen (Client.Listen); on the handshake
		// revisions the GET stream is the only way a server notifies
		// between requests, and Client.Listen refuses a connection on it.
		// A stateless era keeps it for its fallback: mcp-go opens it only
		// once a connection ran initialize (see boundedStreamable).
		streamable, err := transport.NewStreamableHTTP(c.spec.URL,
			transport.WithHTTPBasicClient(hc),
			transport.WithHTTPHeaders(headers),
			transport.WithHTTPLogger(c.s.opts.Logger),
			//lint:ignore SA1019 the GET stream is how the pinned protocol revision notifies (see above)
			transport.WithContinuousListening())
		if err != nil {
			c.fail(fmt.Sprintf("connecting to %s: %v", model.RedactURL(c.spec.URL), err), "")
			return nil
		}
		tr = boundedStreamable{streamable, tap, c.hs.Era().Discover, c.era}
	}
	cl := c.newClient(tr)

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing.Load() {
		return nil
	}
	c.client, c.lister = cl, &lister{pager: transportPager{tr}}
	c.closeIdle, c.redirects = base.CloseIdleConnections, tap.guard
	return cl
}

// A boundedStreamable is mcp-go's streamable HTTP transport whose failed
// requests say which limit their answer went over (httpTap.send).
type boundedStreamable struct {
	*transport.StreamableHTTP
	tap *httpTap
	// probes says the handshake's era probes with server/discover first.
	probes bool
	era    *eraWatch
}

// RequiresLegacyProtocol tells mcp-go's client whether it may probe with
// server/discover. The transport says no as soon as it listens on the GET
// stream, which only a connection that ran initialize has; but mcp-go
// opens that stream only once such a connection is up, and never on a
// stateless one, so a client whose era probes is let probe, and keeps the
// stream for its fallback, as a dual-era client does.
func (b boundedStreamable) RequiresLegacyProtocol() bool {
	return !b.probes && b.StreamableHTTP.RequiresLegacyProtocol()
}

func (b boundedStreamable) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return b.tap.send(ctx, req, func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		return b.era.send(ctx, req, b.StreamableHTTP.SendRequest)
	})
}

// A boundedSSE is boundedStreamable for the SSE transport.
type boundedSSE struct {
	*transport.SSE
	tap *httpTap
	era *eraWatch
}

func (b boundedSSE) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return b.tap.send(ctx, req, func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		return b.era.send(ctx, req, b.SSE.SendRequest)
	})
}

// lose fails a server whose event stream, which no request waits on (the
// listening GET of streamable HTTP, the stream of SSE), went over a limit:
// left alone, the stream would be opened again, and the server shown ok.
func (c *conn) lose(err error) {
	if c.closing.Load() {
		return
	}
	c.fail(err.Error(), "")
	go c.terminate()
}

// readyNote adds to a Ready event's note what the HTTP exchange did that a
// person should know: a redirect to another origin, and the headers not
// sent there.
func (c *conn) readyNote(note string) string {
	if c.redirects != nil {
		return joinNote(note, c.redirects.note())
	}
	return note
}

// A loginError is a server that wants a login before it answers
// (oauth.NeedsLoginError, which the loader does not import).
type loginError interface {
	error
	NeedsLogin() bool
}

// needsLogin returns the login err is waiting for, or nil.
func needsLogin(err error) loginError {
	var le loginError
	if errors.As(err, &le) && le.NeedsLogin() {
		return le
	}
	return nil
}

// A refuser is an HTTPAuth transport that says the server's last refusal
// (oauth.Transport): a connect that fell back from a refused request (the
// server/discover probe) to another failed for want of a login, whatever
// the fallback's own answer was.
type refuser interface {
	Refused() error
}

// needsLogin returns the login a failed connect of c is waiting for: err's
// own, or the last refusal of c's HTTPAuth transport; nil for neither.
func (c *conn) needsLogin(err error) loginError {
	if le := needsLogin(err); le != nil {
		return le
	}
	c.mu.Lock()
	r := c.auth
	c.mu.Unlock()
	if r != nil {
		return needsLogin(r.Refused())
	}
	return nil
}

// httpHint adds what a person can do about a failed HTTP connect.
func httpHint(err error) string {
	var auth *transport.AuthorizationRequiredError
	switch {
	case errors.Is(err, transport.ErrLegacySSEServer):
		return " (the server refused initialize over streamable HTTP; it may speak the older SSE transport: try type sse)"
	case errors.As(err, &auth):
		return " (the server wants authorization: log in with mcplens login CONFIG SERVER, or give a token in the config's headers)"
	}
	return ""
}

// Retry connects to the server of the label again, with the handshake it
// was connected with: after a login, the server that asked for one. It
// reports whether it did (not for an unknown label, nor after Close).
func (s *Session) Retry(label string) bool {
	s.mu.RLock()
	c := s.byName[label]
	s.mu.RUnlock()
	if c == nil {
		return false
	}
	return s.reconnect(label, c.hs, true)
}
