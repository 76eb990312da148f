package loader_test

import (
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// The tests below run each mode of the hostile streamable HTTP server
// (internal/testkit/hostile, over real loopback HTTP) beside a well-behaved one,
// with small limits, and check that the fault fails the server (or the
// call) with the limit named while the other server goes on.

// smallLimits keep the floods short.
var smallLimits = loader.Limits{Body: 1 << 20, Inflated: 2 << 20, Event: 1 << 20, ErrorBody: 4 << 10}

// withHostileHTTP opens the hostile HTTP server's "ok" mode as "ok" and
// mode as "bad".
func withHostileHTTP(t *testing.T, mode string) (*config.Config, *loader.Session) {
	t.Helper()
	ts := httptest.NewServer(hostile.HTTP())
	t.Cleanup(ts.Close)
	transport := config.TransportHTTP
	if strings.HasPrefix(mode, "sse-") {
		transport = config.TransportSSE
	}
	cfg := &config.Config{Servers: []config.ServerSpec{
		{Label: "ok", Transport: config.TransportHTTP, URL: ts.URL + "/ok"},
		{Label: "bad", Transport: transport, URL: ts.URL + "/" + mode},
	}}
	return cfg, open(t, cfg, loader.Options{Limits: smallLimits})
}

// okStillWorks checks that server "ok" is ready and answers a call.
func okStillWorks(t *testing.T, s *loader.Session, last map[string]mcpsession.Event) {
	t.Helper()
	if ev := last["ok"]; ev.State != mcpsession.Ready || len(ev.Tools) != 1 {
		t.Errorf("ok = %v %q with %d tools, want Ready with 1", ev.State, ev.Err, len(ev.Tools))
	}
	if res, err := s.Call(context.Background(), "ok", "big", nil); err != nil || !strings.Contains(string(res.Result), `"ok"`) {
		t.Errorf("calling ok: %s, %v; want its answer", res.Result, err)
	}
}

func TestHTTPBoundsFailTheServer(t *testing.T) {
	for _, tt := range []struct {
		mode string
		want string
	}{
		{"endless-body", "listing tools: tools/list: the body of the response to tools/list is over the 1MiB body limit; raise it with --limit body=SIZE or MCPLENS_LIMIT_BODY"},
		{"endless-event", "listing tools: tools/list: an event of the response to tools/list is over the 1MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"},
		{"gzip-bomb", "listing tools: tools/list: the body of the response to tools/list, decompressed, is over the 2MiB inflated limit; raise it with --limit inflated=SIZE or MCPLENS_LIMIT_INFLATED"},
		{"huge-error", "… [cut: the body of the HTTP 500 response to tools/list is over the 4KiB error-body limit; raise it with --limit error-body=SIZE or MCPLENS_LIMIT_ERROR_BODY]"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			cfg, s := withHostileHTTP(t, tt.mode)
			_, last := settle(t, s, cfg)
			ev := last["bad"]
			if ev.State != mcpsession.Failed || !strings.Contains(ev.Err, tt.want) {
				t.Errorf("bad = %v %.300q, want Failed with %q", ev.State, ev.Err, tt.want)
			}
			if len(ev.Err) > 8<<10 {
				t.Errorf("the failure is %d bytes long, want the error body cut to 4KiB", len(ev.Err))
			}
			okStillWorks(t, s, last)

			// The wire pane holds what came, marked as cut.
			var cut bool
			for _, f := range s.FrameLog("bad").Frames() {
				cut = cut || f.Dir == mcpsession.In && f.Truncated()
			}
			if !cut {
				t.Errorf("no In frame of bad is marked as cut")
			}
		})
	}
}

// TestHTTPListenFlood: an event that never ends on the stream no request
// waits on (the listening GET; an SSE server's stream) fails the server,
// rather than growing while it shows ready.
func TestHTTPListenFlood(t *testing.T) {
	want := "an event of the GET stream is over the 1MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"
	for _, mode := range []string{"listen-flood", "sse-flood"} {
		t.Run(mode, func(t *testing.T) {
			_, s := withHostileHTTP(t, mode)
			last := map[string]mcpsession.Event{}
			deadline := time.Now().Add(settleTimeout)
			for last["bad"].State != mcpsession.Failed || last["ok"].State != mcpsession.Ready {
				ev := nextState(t, s, time.Until(deadline))
				last[ev.Server] = ev
			}
			if got := last["bad"].Err; got != want {
				t.Errorf("bad failed with %q, want %q", got, want)
			}
			if f := last["bad"].Findings; len(f) > 0 {
				t.Errorf("findings %+v: the event cut short is no protocol fault", f)
			}
			okStillWorks(t, s, last)
		})
	}
}

// TestHTTPCallBounds: an answer to tools/call over a limit fails that
// call, with the limit named; the server stays ready.
func TestHTTPCallBounds(t *testing.T) {
	for _, tt := range []struct {
		mode string
		want string
	}{
		{"endless-result", "the body of the response to tools/call is over the 1MiB body limit; raise it with --limit body=SIZE or MCPLENS_LIMIT_BODY"},
		{"endless-call-event", "an event of the response to tools/call is over the 1MiB event limit; raise it with --limit event=SIZE or MCPLENS_LIMIT_EVENT"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			cfg, s := withHostileHTTP(t, tt.mode)
			_, last := settle(t, s, cfg)
			if ev := last["bad"]; ev.State != mcpsession.Ready {
				t.Fatalf("bad = %v %q, want Ready", ev.State, ev.Err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
			defer cancel()
			_, err := s.Call(ctx, "bad", "big", nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Call = %v, want an error with %q", err, tt.want)
			}
			okStillWorks(t, s, last)
			// The server is still ready: a second call is made, and fails
			// the same way.
			if _, err := s.Call(ctx, "bad", "big", nil); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("second Call = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// headerLog keeps the values of some headers of every request a server
// received.
type headerLog struct {
	mu   sync.Mutex
	seen map[string][]string
}

func (l *headerLog) wrap(h http.Handler, names ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		if l.seen == nil {
			l.seen = map[string][]string{}
		}
		for _, n := range names {
			if v := r.Header.Get(n); v != "" {
				l.seen[n] = append(l.seen[n], r.Method+" "+v)
			}
		}
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *headerLog) get(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen[name]
}

// TestHTTPCrossOriginRedirect: a server that redirects to another origin
// (another port of the same host) gets none of the configured headers
// there, not even a custom one Go would carry, and the server line says
// so; a redirect within the origin keeps them.
func TestHTTPCrossOriginRedirect(t *testing.T) {
	secret := []string{"X-Api-Key", "Authorization", "Referer"}
	var atB headerLog
	b := httptest.NewServer(atB.wrap(server.NewStreamableHTTPServer(growServer()), secret...))
	t.Cleanup(b.Close)
	var atA headerLog
	a := httptest.NewServer(atA.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/mcp", http.StatusTemporaryRedirect)
	}), secret...))
	t.Cleanup(a.Close)
	headers := []config.Header{{Name: "X-Api-Key", Value: "k3y"}, {Name: "Authorization", Value: "Bearer t0k"}}
	cfg := remoteConfig("moved", config.TransportHTTP, a.URL+"/mcp?token=s3cret", headers...)
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)

	ev := last["moved"]
	host := strings.TrimPrefix(b.URL, "http://")
	want := "redirected from " + a.URL + "/mcp?token=**** to " + b.URL + "/mcp; configured headers not sent to " + host
	if ev.State != mcpsession.Ready || ev.Err != want {
		t.Errorf("moved = %v %q, want Ready with the note %q", ev.State, ev.Err, want)
	}
	for _, name := range secret {
		if got := atB.get(name); len(got) > 0 {
			t.Errorf("the other origin received %s: %q", name, got)
		}
	}
	if got := atA.get("X-Api-Key"); len(got) == 0 {
		t.Errorf("the configured origin never received X-Api-Key")
	}

	// When the other origin refuses the request without them, the failure
	// says why.
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(refusing.Close)
	toRefusing := httptest.NewServer(http.RedirectHandler(refusing.URL+"/mcp", http.StatusTemporaryRedirect))
	t.Cleanup(toRefusing.Close)
	cfg = remoteConfig("refused", config.TransportHTTP, toRefusing.URL+"/mcp", headers...)
	s = open(t, cfg, loader.Options{})
	_, last = settle(t, s, cfg)
	want = "(redirected from " + toRefusing.URL + "/mcp to " + refusing.URL + "/mcp; configured headers not sent to " +
		strings.TrimPrefix(refusing.URL, "http://") + ")"
	if ev := last["refused"]; ev.State != mcpsession.Failed || !ev.NeedsLogin || !strings.Contains(ev.Err, want) {
		t.Errorf("refused = %v (needs login %v) %q, want Failed needing a login with %q", ev.State, ev.NeedsLogin, ev.Err, want)
	}

	// Within one origin, the headers go along and nothing is noted.
	var atC headerLog
	mcp := server.NewStreamableHTTPServer(growServer())
	c := httptest.NewServer(atC.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/mcp", http.StatusPermanentRedirect)
			return
		}
		mcp.ServeHTTP(w, r)
	}), secret...))
	t.Cleanup(c.Close)
	cfg = remoteConfig("same", config.TransportHTTP, c.URL+"/old", headers...)
	s = open(t, cfg, loader.Options{})
	_, last = settle(t, s, cfg)
	if ev := last["same"]; ev.State != mcpsession.Ready || ev.Err != "" {
		t.Errorf("same = %v %q, want Ready with no note", ev.State, ev.Err)
	}
	if got := atC.get("X-Api-Key"); len(got) < 2 {
		t.Errorf("X-Api-Key reached the server %d times, want on every request, redirected or not", len(got))
	}
}

// gzipped compresses every answer of h for a client that accepts gzip,
// counting them in n.
func gzipped(h http.Handler, n *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		n.Add(1)
		w.Header().Set("Content-Encoding", "gzip")
		z := gzip.NewWriter(w)
		defer z.Close()
		h.ServeHTTP(gzipWriter{w, z}, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	z *gzip.Writer
}

func (g gzipWriter) Write(p []byte) (int, error) { return g.z.Write(p) }

func (g gzipWriter) Flush() {
	g.z.Flush()
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// TestHTTPGzip: a server that compresses its answers is asked to, and is
// understood, the event streams included; the wire pane shows the
// answers inflated.
func TestHTTPGzip(t *testing.T) {
	var zipped atomic.Int64
	ts := httptest.NewServer(gzipped(server.NewStreamableHTTPServer(growServer()), &zipped))
	t.Cleanup(ts.Close)
	cfg := remoteConfig("zipped", config.TransportHTTP, ts.URL+"/mcp")
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if ev := last["zipped"]; ev.State != mcpsession.Ready || len(ev.Tools) != 3 {
		t.Fatalf("zipped = %v %q with %d tools, want Ready with 3", ev.State, ev.Err, len(ev.Tools))
	}
	res, err := s.Call(context.Background(), "zipped", "t1", nil)
	if err != nil || !strings.Contains(string(res.Result), `"ok"`) {
		t.Errorf("Call = %s, %v; want the inflated answer", res.Result, err)
	}
	var listed bool
	for _, f := range s.FrameLog("zipped").Frames() {
		listed = listed || f.Dir == mcpsession.In && strings.Contains(string(f.Bytes), `"name":"t1"`)
	}
	if !listed {
		t.Errorf("no In frame holds the inflated tools/list answer")
	}
	if zipped.Load() == 0 {
		t.Errorf("no request accepted gzip")
	}
}
