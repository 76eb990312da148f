package relay

import (
	"bytes"
	"io"
	"net/url"
)

// maxEndpointEvent bounds how much of an event stream is held back while
// looking for its endpoint event; a stream whose first event is longer
// passes on as it came.
const maxEndpointEvent = 16 << 10

// An endpointRewriter passes an SSE server's event stream on, but for its
// first event: when that is the endpoint event and names the upstream's
// own origin (an absolute URL), the proxy's origin is put in its place, so
// that the client posts its messages through the proxy rather than around
// it. Everything after the first event passes as it came.
type endpointRewriter struct {
	rc       io.ReadCloser
	from, to string // origins: scheme://host
	held     []byte // the first event, while it is read
	out      []byte // what is ready to pass on
	done     bool   // the first event is passed
}

// newEndpointRewriter rewrites the endpoint event of body from upstream's
// origin to http://host.
func newEndpointRewriter(body io.ReadCloser, upstream *url.URL, host string) io.ReadCloser {
	return &endpointRewriter{rc: body, from: upstream.Scheme + "://" + upstream.Host, to: "http://" + host}
}

func (e *endpointRewriter) Read(p []byte) (int, error) {
	for !e.done && len(e.out) == 0 {
		buf := make([]byte, 4096)
		n, err := e.rc.Read(buf)
		e.held = append(e.held, buf[:n]...)
		if end := eventEnd(e.held); end >= 0 {
			e.out = append(e.rewrite(e.held[:end]), e.held[end:]...)
			e.held, e.done = nil, true
		} else if err != nil || len(e.held) > maxEndpointEvent {
			e.out, e.held, e.done = e.held, nil, true
		}
		if err != nil && len(e.out) == 0 {
			return 0, err
		}
	}
	if len(e.out) > 0 {
		n := copy(p, e.out)
		e.out = e.out[n:]
		return n, nil
	}
	return e.rc.Read(p)
}

func (e *endpointRewriter) Close() error { return e.rc.Close() }

// eventEnd returns where the first event of b ends (after its blank
// line), or -1.
func eventEnd(b []byte) int {
	for _, sep := range []string{"\n\n", "\r\n\r\n"} {
		if i := bytes.Index(b, []byte(sep)); i >= 0 {
			return i + len(sep)
		}
	}
	return -1
}

// rewrite returns the event ev with the upstream's origin in its data
// replaced by the proxy's, when it is the endpoint event.
func (e *endpointRewriter) rewrite(ev []byte) []byte {
	if !bytes.Contains(ev, []byte("event: endpoint")) && !bytes.Contains(ev, []byte("event:endpoint")) {
		return ev
	}
	for _, prefix := range []string{"data: ", "data:"} {
		old := []byte(prefix + e.from)
		if i := bytes.Index(ev, old); i >= 0 {
			rest := ev[i+len(old):]
			if len(rest) == 0 || rest[0] == '/' || rest[0] == '?' || rest[0] == '\r' || rest[0] == '\n' {
				return bytes.Join([][]byte{ev[:i], []byte(prefix + e.to), rest}, nil)
			}
		}
	}
	return ev
}
