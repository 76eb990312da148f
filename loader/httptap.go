package loader

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"sync"
	"time"
)

// deleteBudget bounds the DELETE that ends a streamable HTTP session on
// close: mcp-go would wait 5s for it, more than Close may take.
const deleteBudget = 500 * time.Millisecond

// An httpTap records the bodies of a remote server's HTTP exchange in its
// Wire, byte for byte: each request body as an Out frame before it is
// sent, each response body as one In frame, and each event of an event
// stream as one In frame holding the event's data, as it arrives.
type httpTap struct {
	next http.RoundTripper
	wire *Wire
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		out = req.Clone(req.Context())
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		out.ContentLength = int64(len(body))
		if len(body) > 0 {
			t.wire.record(Out, body, len(body), kindOf(body))
		}
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
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media == "text/event-stream" {
		resp.Body = &eventTap{body: resp.Body, wire: t.wire, cancel: cancel}
	} else {
		resp.Body = &bodyTap{body: resp.Body, wire: t.wire, cancel: cancel}
	}
	return resp, nil
}

// A bodyTap keeps a response body as it is read and records it whole when
// it ends or is closed; a body closed early is read to its end first
// (within maxLineBytes), so the frame holds what the server sent.
type bodyTap struct {
	body   io.ReadCloser
	wire   *Wire
	cancel context.CancelFunc

	mu   sync.Mutex
	buf  []byte
	size int
	done bool
}

func (b *bodyTap) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.keep(p[:n])
	if err != nil {
		b.finish()
	}
	return n, err
}

func (b *bodyTap) keep(p []byte) {
	b.size += len(p)
	if room := maxLineBytes - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
}

// finish records the body once; the lock is held.
func (b *bodyTap) finish() {
	if b.done {
		return
	}
	b.done = true
	if b.size > 0 {
		body := bytes.TrimRight(b.buf, "\r\n")
		b.wire.record(In, body, b.size, kindOf(body))
	}
}

func (b *bodyTap) Close() error {
	b.mu.Lock()
	if !b.done {
		rest, _ := io.ReadAll(io.LimitReader(b.body, maxLineBytes))
		b.keep(rest)
		b.finish()
	}
	b.mu.Unlock()
	err := b.body.Close()
	if b.cancel != nil {
		b.cancel()
	}
	return err
}

// An eventTap reads a text/event-stream body and records the data of each
// event as one frame, when the blank line that ends the event arrives.
type eventTap struct {
	body   io.ReadCloser
	wire   *Wire
	cancel context.CancelFunc

	mu      sync.Mutex
	line    []byte // the current line, up to maxLineBytes
	data    []byte // the current event's data lines, joined by "\n"
	hasData bool
	size    int
}

func (e *eventTap) Read(p []byte) (int, error) {
	n, err := e.body.Read(p)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.feed(p[:n])
	if err != nil && e.hasData { // a last event with no blank line after it
		e.dispatch()
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
		e.line = e.line[:0]
		p = p[i+1:]
	}
}

func (e *eventTap) add(p []byte) {
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
	e.size += len(value)
	if room := maxLineBytes - len(e.data); room > 0 {
		e.data = append(e.data, value[:min(room, len(value))]...)
	}
	e.hasData = true
}

func (e *eventTap) dispatch() {
	e.wire.record(In, e.data, e.size, kindOf(e.data))
	e.data, e.size, e.hasData = e.data[:0], 0, false
}

func (e *eventTap) Close() error {
	err := e.body.Close()
	if e.cancel != nil {
		e.cancel()
	}
	return err
}
