package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcplens/mcplens/mcpsession"
)

// deleteBudget bounds the DELETE that ends a streamable HTTP session on
// close: mcp-go would wait 5s for it, more than Close may take.
const deleteBudget = 500 * time.Millisecond

// An httpTap tells its observer of the bodies of a remote server's HTTP
// exchange, byte for byte: each request body as an Out frame before it is
// sent, each response body as one In frame, and each event of an event
// stream as one In frame holding the event's data, as it arrives.
//
// It also bounds every response body before mcp-go reads it, whose readers
// hold whatever comes: a body by Limits.Body as it crossed the network and
// by Limits.Inflated once decompressed (the tap asks for gzip and inflates
// it itself, so that no decompression escapes the bound), one event of an
// event stream by Limits.Event, and what is read of an error response by
// Limits.ErrorBody. A body that goes over fails the request that waits on
// it with the *LimitError (send); a stream no request waits on (the
// listening GET) tells lost, which fails the server.
type httpTap struct {
	next   http.RoundTripper
	obs    observer
	limits Limits
	// lost is told when a stream no request waits on goes over a limit.
	lost func(error)

	lostErr atomic.Pointer[LimitError]
	guard   *redirectGuard
	// schemaOf gives the input schema of a listed tool, for the
	// Mcp-Param headers of a call to it (stamp).
	schemaOf func(wire string) json.RawMessage
}

// send sends one request with send (mcp-go's transport). When it fails and
// its answer, or the stream it waited on, went over a limit, the error is
// that *LimitError; a cross-origin redirect is noted on any failure.
func (t *httpTap) send(ctx context.Context, req transport.JSONRPCRequest,
	send func(context.Context, transport.JSONRPCRequest) (*transport.JSONRPCResponse, error)) (*transport.JSONRPCResponse, error) {
	slot := new(limitSlot)
	resp, err := send(context.WithValue(ctx, limitSlotKey{}, slot), req)
	if err == nil {
		return resp, nil
	}
	if lerr := slot.get(); lerr != nil {
		err = lerr
	} else if lerr := t.lostErr.Load(); lerr != nil {
		err = lerr
	}
	if note := t.guard.note(); note != "" {
		err = fmt.Errorf("%w (%s)", err, note)
	}
	return nil, err
}

// broke reports a limit the response to req went over: to the request
// waiting on it, else (a stream nobody waits on) to lost, once.
func (t *httpTap) broke(req *http.Request, err *LimitError) {
	if slot, ok := req.Context().Value(limitSlotKey{}).(*limitSlot); ok {
		slot.set(err)
		return
	}
	if t.lostErr.CompareAndSwap(nil, err) && t.lost != nil {
		t.lost(err)
	}
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	subject, errSubject := "the "+req.Method+" stream", "response to a "+req.Method
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		out.ContentLength = int64(len(body))
		if len(body) > 0 {
			f := record(t.obs, mcpsession.Out, body, len(body), kindOf(body))
			if f.env.Method != nil {
				errSubject = "response to " + f.env.method()
			}
			if req.Method == http.MethodPost {
				stamp(out.Header, f.env, t.schemaOf)
			}
		}
		subject = "the " + errSubject
	}
	// Asked for here rather than by Go's transport, which would inflate
	// the body out of sight of the bounds (it is built with compression
	// disabled).
	if out.Header.Get("Accept-Encoding") == "" && out.Header.Get("Range") == "" {
		out.Header.Set("Accept-Encoding", "gzip")
	}
	var cancel context.CancelFunc
	if req.Method == http.MethodDelete {
		var ctx context.Context
		ctx, cancel = context.WithTimeout(req.Context(), deleteBudget)
		out = out.WithContext(ctx)
	}
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		return nil, err
	}
	noteStatus(req, resp)
	t.bound(resp, req, subject, errSubject, cancel)
	return resp, nil
}

// bound puts the limits and the tap between resp's body and its reader.
// subject names the response in a *LimitError ("the response to
// tools/call", "the GET stream"), errSubject an error response to the
// same request.
func (t *httpTap) bound(resp *http.Response, req *http.Request, subject, errSubject string, cancel context.CancelFunc) {
	raw := resp.Body
	var body io.Reader = raw
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	failed := resp.StatusCode < 200 || resp.StatusCode > 299
	stream := media == "text/event-stream" && !failed
	if !stream {
		body = &capped{r: body, max: t.limits.Body, err: &LimitError{
			Limit: "body", Max: t.limits.Body, What: "the body of " + subject}}
	}
	if enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc == "gzip" || enc == "x-gzip" {
		body = &gunzip{r: body}
		if !stream {
			body = &capped{r: body, max: t.limits.Inflated, err: &LimitError{
				Limit: "inflated", Max: t.limits.Inflated, What: "the body of " + subject + ", decompressed,"}}
		}
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.ContentLength, resp.Uncompressed = -1, true
	}
	broke := func(err *LimitError) { t.broke(req, err) }
	switch {
	case failed:
		tap := &bodyTap{body: body, closer: raw, obs: t.obs, cancel: cancel,
			drain: t.limits.ErrorBody, length: resp.ContentLength}
		resp.Body = &errorBody{body: tap, left: t.limits.ErrorBody, err: &LimitError{
			Limit: "error-body", Max: t.limits.ErrorBody,
			What: fmt.Sprintf("the body of the HTTP %d %s", resp.StatusCode, errSubject)}}
	case stream:
		resp.Body = &eventTap{body: body, closer: raw, obs: t.obs, cancel: cancel, broke: broke,
			max: t.limits.Event, what: "an event of " + subject}
	default:
		resp.Body = &bodyTap{body: body, closer: raw, obs: t.obs, cancel: cancel, broke: broke,
			drain: maxLineBytes, length: resp.ContentLength}
	}
}

// A bodyTap keeps a response body as it is read and records it whole when
// it ends or is closed. A body closed early is read on to its end first,
// within the limits and at most drain bytes more, so the frame holds what
// the server sent.
type bodyTap struct {
	body   io.Reader
	closer io.Closer
	obs    observer
	cancel context.CancelFunc
	broke  func(*LimitError) // told of a limit the body went over
	drain  int64
	length int64 // the Content-Length, or -1

	mu   sync.Mutex
	buf  []byte
	size int
	cut  bool // the body went on past what was read
	done bool
}

func (b *bodyTap) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.mu.Lock()
	b.keep(p[:n])
	if err != nil {
		b.cut = err != io.EOF
		b.finish()
	}
	b.mu.Unlock()
	if lerr, ok := err.(*LimitError); ok && b.broke != nil {
		b.broke(lerr)
	}
	return n, err
}

func (b *bodyTap) keep(p []byte) {
	b.size += len(p)
	if room := maxLineBytes - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
}

// finish records the body once; the lock is held. A body cut short is
// recorded as longer than what was kept, so the wire pane says it was cut.
func (b *bodyTap) finish() {
	if b.done {
		return
	}
	b.done = true
	if b.size == 0 {
		return
	}
	body := bytes.TrimRight(b.buf, "\r\n")
	size := b.size
	if size == len(b.buf) {
		size = len(body) // held whole: its line end is no part of the frame
	}
	if b.cut {
		size = max(size+1, int(min(b.length, 1<<40)))
	}
	record(b.obs, mcpsession.In, body, size, kindOf(body))
}

func (b *bodyTap) Close() error {
	b.mu.Lock()
	if !b.done {
		rest, err := io.ReadAll(io.LimitReader(b.body, b.drain))
		b.keep(rest)
		b.cut = err != nil || int64(len(rest)) == b.drain
		b.finish()
	}
	b.mu.Unlock()
	err := b.closer.Close()
	if b.cancel != nil {
		b.cancel()
	}
	return err
}

// An eventTap reads a text/event-stream body and records the data of each
// event as one frame, when the blank line that ends the event arrives. An
// event whose data, with the line being read, goes over max fails the
// stream: mcp-go would hold it whole.
type eventTap struct {
	body   io.Reader
	closer io.Closer
	obs    observer
	cancel context.CancelFunc
	broke  func(*LimitError)
	max    int64
	what   string

	mu      sync.Mutex
	line    []byte // the current line, up to maxLineBytes
	lineLen int64  // the current line's whole length
	data    []byte // the current event's data lines, joined by "\n"
	hasData bool
	size    int
	err     *LimitError // the limit the stream went over
}

func (e *eventTap) Read(p []byte) (int, error) {
	e.mu.Lock()
	if e.err != nil {
		e.mu.Unlock()
		return 0, e.err
	}
	e.mu.Unlock()
	n, err := e.body.Read(p)
	e.mu.Lock()
	e.feed(p[:n])
	if e.err == nil && int64(e.size)+e.lineLen > e.max {
		e.err = &LimitError{Limit: "event", Max: e.max, What: e.what}
		kept := e.data
		if len(kept) == 0 { // the line being read is what went over
			kept = e.line
			if value, ok := bytes.CutPrefix(kept, []byte("data:")); ok {
				kept = bytes.TrimPrefix(value, []byte(" "))
			}
		}
		// Cut short, it is no JSON, and no fault of the protocol's.
		record(e.obs, mcpsession.In, kept, e.size+int(e.lineLen)+1, frameJunk)
		e.data, e.line, e.size, e.hasData = nil, nil, 0, false
	}
	lerr := e.err
	if err != nil && e.hasData { // a last event with no blank line after it
		e.dispatch()
	}
	e.mu.Unlock()
	if lerr != nil {
		e.broke(lerr)
		return n, lerr
	}
	return n, err
}

func (e *eventTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			e.add(p)
			return
		}
		e.add(p[:i])
		e.endLine(bytes.TrimSuffix(e.line, []byte("\r")))
		e.line, e.lineLen = e.line[:0], 0
		p = p[i+1:]
	}
}

func (e *eventTap) add(p []byte) {
	e.lineLen += int64(len(p))
	if room := maxLineBytes - len(e.line); room > 0 {
		e.line = append(e.line, p[:min(room, len(p))]...)
	}
}

// endLine handles one line of the stream: "data:" lines make up the event,
// a blank line dispatches it; "event:", "id:", "retry:" and comments carry
// no message.
func (e *eventTap) endLine(line []byte) {
	if len(line) == 0 {
		if e.hasData {
			e.dispatch()
		}
		return
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	if string(field) != "data" {
		return
	}
	value = bytes.TrimPrefix(value, []byte(" "))
	if e.hasData {
		e.data = append(e.data, '\n')
		e.size++
	}
	e.size += len(value) + int(e.lineLen) - len(e.line) // a line kept cut counts whole
	if room := maxLineBytes - len(e.data); room > 0 {
		e.data = append(e.data, value[:min(room, len(value))]...)
	}
	e.hasData = true
}

func (e *eventTap) dispatch() {
	record(e.obs, mcpsession.In, e.data, e.size, kindOf(e.data))
	e.data, e.size, e.hasData = e.data[:0], 0, false
}

func (e *eventTap) Close() error {
	err := e.closer.Close()
	if e.cancel != nil {
		e.cancel()
	}
	return err
}
