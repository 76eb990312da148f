package probe

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/mcpsession"
)

// maxEvents is how many server-sent events one response is read for.
const maxEvents = 1000

// An httpPeer POSTs each message to a streamable HTTP endpoint and reads
// the answer as JSON or an event stream, bounded in bytes and by the
// probe's deadline. It records what it sends and receives of the protocol
// only: the request line and the protocol headers, never the config's
// own headers (an Authorization stays off the evidence).
type httpPeer struct {
	t       *tape
	url     string
	hc      *http.Client
	headers http.Header // the config's and the handshake's: sent, never recorded
	// body bounds one response body (Limits.Body; compression is not
	// asked for, so it bounds the body as read); event one event.
	body, event int64

	mu       sync.Mutex
	session  string // Mcp-Session-Id issued
	version  string // MCP-Protocol-Version to send, once negotiated
	queue    [][]byte
	eventIDs bool // some event carried an id
	// badType are the exchanges whose request was answered 2xx with a body
	// neither JSON nor an event stream, at most maxEvidence frames.
	badType []mcpsession.Frame
	// stateless says the session is on a stateless revision: each request
	// carries Mcp-Method (and Mcp-Name) as the revision asks.
	stateless bool
}

// newHTTPPeer is a peer of the audited server, recording on t.
func (a *auditor) newHTTPPeer(t *tape) *httpPeer {
	var rt http.RoundTripper = &http.Transport{Proxy: nil, ResponseHeaderTimeout: 30 * time.Second, MaxResponseHeaderBytes: 64 << 10, DisableCompression: true}
	if a.o.HTTPAuth != nil {
		rt = a.o.HTTPAuth(a.spec, rt)
	}
	limits := a.o.Limits
	return &httpPeer{t: t, url: a.spec.URL, headers: a.headers(), body: limits.Body, event: limits.Event, hc: &http.Client{
		Transport: rt,
		// A redirect is the server's answer, not followed: the audit talks
		// to the URL it was given.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// An exchange is one HTTP request and its response as the audit saw them.
type exchange struct {
	status int
	header http.Header
	// msgs are the JSON-RPC messages the body carried; body is the body
	// read (at most the body limit), for a JSON answer.
	msgs [][]byte
	body []byte
	// stream says the answer was an event stream.
	stream bool
}

// protocolHeaders are the request headers the audit sets and records.
var protocolHeaders = []string{"Accept", "Content-Type", "Origin", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-Id", "Mcp-Method", "Mcp-Name"}

// do sends one request: method, the protocol headers of set (a value ""
// removes the header), body (nil: none). A stream answer to a GET is not
// read: its status and headers are the answer.
func (p *httpPeer) do(ctx context.Context, method string, set map[string]string, host string, body []byte) (exchange, error) {
	req, err := p.request(ctx, method, set, host, body)
	if err != nil {
		return exchange{}, err
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		p.t.add(mcpsession.In, []byte("no response: "+err.Error()), false, "")
		return exchange{}, err
	}
	defer resp.Body.Close()
	ex := exchange{status: resp.StatusCode, header: resp.Header}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case ct == "text/event-stream" && method == http.MethodGet:
		ex.stream = true
	case ct == "text/event-stream":
		ex.stream = true
		ex.msgs, err = p.readEvents(resp.Body)
	default:
		ex.body, err = io.ReadAll(io.LimitReader(resp.Body, p.body))
		if ct == "application/json" && len(bytes.TrimSpace(ex.body)) > 0 {
			ex.msgs = [][]byte{bytes.TrimSpace(ex.body)}
		}
	}
	p.t.add(mcpsession.In, responseText(resp, ex), false, "")
	return ex, err
}

// request builds one request with the config's headers, the session's and
// set's over them, and records it.
func (p *httpPeer) request(ctx context.Context, method string, set map[string]string, host string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.url, rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range p.headers {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	p.mu.Lock()
	if p.session != "" {
		req.Header.Set("Mcp-Session-Id", p.session)
	}
	if p.version != "" {
		req.Header.Set("Mcp-Protocol-Version", p.version)
	}
	p.mu.Unlock()
	for k, v := range set {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	if host != "" {
		req.Host = host
	}
	p.t.add(mcpsession.Out, requestText(req, host, body), false, "")
	return req, nil
}

// requestText is a request as evidence: its line, the protocol headers,
// the body.
func requestText(req *http.Request, host string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s", req.Method, req.URL.Redacted())
	if host != "" {
		fmt.Fprintf(&b, "\nHost: %s", host)
	}
	for _, k := range protocolHeaders {
		if v := req.Header.Get(k); v != "" {
			fmt.Fprintf(&b, "\n%s: %s", k, v)
		}
	}
	if body != nil {
		b.WriteString("\n\n")
		b.Write(body)
	}
	return b.Bytes()
}

// responseText is a response as evidence: status, the protocol headers,
// the body or the stream's messages.
func responseText(resp *http.Response, ex exchange) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP %s", resp.Status)
	for _, k := range []string{"Content-Type", "Mcp-Session-Id", "Allow"} {
		if v := resp.Header.Get(k); v != "" {
			fmt.Fprintf(&b, "\n%s: %s", k, v)
		}
	}
	switch {
	case ex.stream:
		for _, m := range ex.msgs {
			b.WriteString("\n\ndata: ")
			b.Write(m)
		}
	case len(ex.body) > 0:
		b.WriteString("\n\n")
		b.Write(ex.body)
	}
	return b.Bytes()
}

// readEvents reads an event stream until a response arrives (the answer
// to the POST) or the stream ends, at most the body limit, each event at
// most the event limit, and maxEvents events.
func (p *httpPeer) readEvents(body io.Reader) ([][]byte, error) {
	sc := bufio.NewScanner(io.LimitReader(body, p.body))
	sc.Buffer(make([]byte, 64<<10), int(p.event))
	var msgs [][]byte
	var data bytes.Buffer
	for sc.Scan() && len(msgs) < maxEvents {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() == 0 {
				continue
			}
			msg := bytes.Clone(bytes.TrimSpace(data.Bytes()))
			data.Reset()
			msgs = append(msgs, msg)
			if m, ok := decode(msg); ok && m.response() {
				return msgs, nil
			}
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			if int64(data.Len()) > p.event {
				return msgs, fmt.Errorf("an event over the %d-byte event limit", p.event)
			}
		case strings.HasPrefix(line, "id:") && strings.TrimSpace(line[3:]) != "":
			p.mu.Lock()
			p.eventIDs = true
			p.mu.Unlock()
		}
	}
	if data.Len() > 0 {
		msgs = append(msgs, bytes.Clone(bytes.TrimSpace(data.Bytes())))
	}
	return msgs, sc.Err()
}

// send POSTs raw and queues the messages its answer carries.
func (p *httpPeer) send(ctx context.Context, raw []byte) error {
	ex, err := p.do(ctx, http.MethodPost, p.standardHeaders(raw), "", raw)
	if err != nil {
		if ctx.Err() != nil {
			return errTimeout
		}
		return err
	}
	if sid := ex.header.Get("Mcp-Session-Id"); sid != "" {
		p.mu.Lock()
		if p.session == "" {
			p.session = sid
		}
		p.mu.Unlock()
	}
	p.mu.Lock()
	p.queue = append(p.queue, ex.msgs...)
	if m, ok := decode(raw); ok && m.request() && ex.status/100 == 2 && len(ex.msgs) == 0 && len(p.badType) < maxEvidence {
		p.badType = append(p.badType, p.t.last(2)...)
	}
	p.mu.Unlock()
	if ex.status >= 300 && len(ex.msgs) == 0 {
		return fmt.Errorf("HTTP %d", ex.status)
	}
	return nil
}

// next returns a queued message, errNoMore when none is left.
func (p *httpPeer) next(context.Context) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		return nil, errNoMore
	}
	m := p.queue[0]
	p.queue = p.queue[1:]
	return m, nil
}

func (p *httpPeer) sessionID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session
}

// isHTTPStatus reports whether err is an HTTP error status of a send.
func isHTTPStatus(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "HTTP ") && !errors.Is(err, errTimeout)
}

// standardHeaders are the Mcp-Method and Mcp-Name headers of a stateless
// revision's request raw; nil on a session of an older revision.
func (p *httpPeer) standardHeaders(raw []byte) map[string]string {
	p.mu.Lock()
	stateless := p.stateless
	p.mu.Unlock()
	m, ok := decode(raw)
	if !stateless || !ok || m.Method == "" {
		return nil
	}
	set := map[string]string{"Mcp-Method": m.Method}
	for _, k := range []string{"name", "uri"} {
		if v := jsonx.MemberFold(m.Params, k); len(v) > 0 && v[0] == '"' {
			set["Mcp-Name"] = jsonx.String(v)
			break
		}
	}
	return set
}
