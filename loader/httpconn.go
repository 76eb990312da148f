package loader

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcplens/mcplens/model"
)

// transport names the server's transport for display.
func (c *conn) transport() string {
	if c.spec.Transport == "" {
		return TransportStdio
	}
	return c.spec.Transport
}

// dial builds the client of a streamable HTTP or SSE server, its HTTP
// traffic tapped into the server's Wire, and returns it, or nil when it
// could not (reported). Nothing goes over the network until handshake.
func (c *conn) dial() *client.Client {
	// Over HTTP, text that is not JSON (an SSE endpoint event, the body of
	// a 202) belongs to the transport: it is kept, and is no protocol fault.
	if check := c.wire.check; check != nil {
		c.wire.check = func(dir Direction, line []byte, junk, valid bool) string {
			if junk {
				return ""
			}
			return check(dir, line, junk, valid)
		}
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	hc := &http.Client{Transport: &httpTap{next: base, wire: c.wire}}
	headers := make(map[string]string, len(c.spec.Headers))
	for _, h := range c.spec.Headers {
		headers[h.Name] = h.Value
	}

	var tr transport.Interface
	var err error
	if c.spec.Transport == TransportSSE {
		tr, err = transport.NewSSE(c.spec.URL,
			transport.WithHTTPClient(hc),
			transport.WithHeaders(headers),
			transport.WithSSELogger(slog.Default()),
			transport.WithEndpointTimeout(c.timeout))
	} else {
		// Continuous listening opens the GET stream that carries
		// notifications, tools/list_changed among them, between requests.
		tr, err = transport.NewStreamableHTTP(c.spec.URL,
			transport.WithHTTPBasicClient(hc),
			transport.WithHTTPHeaders(headers),
			transport.WithHTTPLogger(slog.Default()),
			transport.WithContinuousListening())
	}
	if err != nil {
		c.fail(fmt.Sprintf("connecting to %s: %v", model.RedactURL(c.spec.URL), err), "")
		return nil
	}
	cl := client.NewClient(tr, client.WithProtocolVersion(ProtocolVersion))
	cl.OnNotification(c.onNotification)

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing.Load() {
		return nil
	}
	c.client, c.lister = cl, &lister{tr: tr}
	c.closeIdle = base.CloseIdleConnections
	return cl
}

// httpHint adds what a person can do about a failed HTTP connect.
func httpHint(err error) string {
	var auth *transport.AuthorizationRequiredError
	switch {
	case errors.Is(err, transport.ErrLegacySSEServer):
		return " (the server refused initialize over streamable HTTP; it may speak the older SSE transport: try type sse)"
	case errors.As(err, &auth):
		return " (the server wants authorization: mcplens does not run OAuth; give a token in the config's headers)"
	}
	return ""
}
