package relay

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"

	"github.com/mcplens/mcplens/recording"
)

// NewProxy returns a reverse proxy to the HTTP MCP server at upstream
// (streamable HTTP or SSE) that copies every exchange to c: each request
// as a c2s frame (method, URL, headers and body), each response as an s2c
// frame (status, headers and body) or, for an event stream, a frame for
// its opening and one per event. Headers and bodies pass through as they
// came, and events are flushed to the client as they arrive, but for an
// SSE server's endpoint event naming the upstream's own origin, which the
// client is given as the proxy's (the recording keeps it as sent).
//
// A request keeps its path and query; a request for "/" goes to
// upstream's own path (and query), so that a client can be pointed at the
// proxy's bare address.
func NewProxy(upstream *url.URL, c *Copier, errorLog *log.Logger) http.Handler {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			target := *upstream
			if pr.In.URL.Path != "/" && pr.In.URL.Path != "" {
				target.Path, target.RawPath, target.RawQuery = pr.In.URL.Path, pr.In.URL.RawPath, pr.In.URL.RawQuery
			} else if pr.In.URL.RawQuery != "" {
				target.RawQuery = pr.In.URL.RawQuery
			}
			pr.Out.URL = &target
			pr.Out.Host = ""
			pr.Out = pr.Out.WithContext(context.WithValue(pr.Out.Context(), proxyHost{}, pr.In.Host))
			st := c.Stream(recording.ClientToServer, Whole)
			st.meta = &recording.HTTP{Method: pr.In.Method, URL: pr.In.URL.RequestURI(), Headers: pr.In.Header.Clone()}
			c.learn(st.meta)
			if pr.Out.Body == nil || pr.Out.Body == http.NoBody {
				st.End()
				return
			}
			pr.Out.Body = &teeBody{rc: pr.Out.Body, s: st}
		},
		ModifyResponse: func(resp *http.Response) error {
			framing := Whole
			if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/event-stream" {
				framing = Events
			}
			st := c.Stream(recording.ServerToClient, framing)
			st.meta = &recording.HTTP{Status: resp.StatusCode, Headers: resp.Header.Clone()}
			c.learn(st.meta)
			resp.Body = &teeBody{rc: resp.Body, s: st}
			host, _ := resp.Request.Context().Value(proxyHost{}).(string)
			if framing == Events && host != "" && resp.Header.Get("Content-Encoding") == "" {
				// The recording keeps the endpoint the server sent; the
				// client is given the proxy's.
				resp.Body = newEndpointRewriter(resp.Body, upstream, host)
			}
			return nil
		},
		FlushInterval: -1,
		ErrorLog:      errorLog,
	}
}

// proxyHost is the context key of the host a request reached the proxy
// at.
type proxyHost struct{}

// A teeBody hands what is read of a body to a stream, and ends the stream
// at the body's end or close, whichever comes first.
type teeBody struct {
	rc    io.ReadCloser
	mu    sync.Mutex // the transport may close a body while reading it
	s     *Stream
	ended bool
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	if n > 0 && !b.ended {
		b.s.Write(p[:n])
	}
	if err != nil {
		b.end()
	}
	b.mu.Unlock()
	return n, err
}

func (b *teeBody) Close() error {
	b.mu.Lock()
	b.end()
	b.mu.Unlock()
	return b.rc.Close()
}

func (b *teeBody) end() {
	if !b.ended {
		b.ended = true
		b.s.End()
	}
}

// inflate returns what the copy kept of a gzip body, inflated up to max
// bytes, and whether all of it was; a body that is not gzip comes back as
// it was.
func inflate(data []byte, max int) ([]byte, bool) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return data, true
	}
	out, err := io.ReadAll(io.LimitReader(zr, int64(max)+1))
	return out[:min(len(out), max)], err == nil && len(out) <= max
}
