package loader_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/stateless"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// connectStateless connects mcplens (opts) to srv and returns its last
// event.
func connectStateless(t *testing.T, srv *stateless.Server, opts loader.Options) (*loader.Session, mcpsession.Event) {
	t.Helper()
	cfg := remoteConfig("s", config.TransportHTTP, srv.URL)
	s := open(t, cfg, opts)
	_, last := settle(t, s, cfg)
	return s, last["s"]
}

// TestStatelessWire: against a server of 2026-07-28 alone, mcplens as itself
// settles on it with server/discover, every request carrying the
// MCP-Protocol-Version header and the _meta it agrees with (the revision,
// clientInfo, capabilities), no initialize; the list's caching hints are
// kept and the revision settled on says how.
func TestStatelessWire(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{TTLMs: 300000, Scope: "public"})
	_, ev := connectStateless(t, srv, loader.Options{})
	if ev.State != mcpsession.Ready || ev.Protocol != model.Revision20260728 || len(ev.Tools) != 1 {
		t.Fatalf("event = %s %q protocol %s, %d tools; want Ready on 2026-07-28 with 1 tool", ev.State, ev.Err, ev.Protocol, len(ev.Tools))
	}
	if want := "2026-07-28 via server/discover"; ev.Facts.Settled != want {
		t.Errorf("settled %q, want %q", ev.Facts.Settled, want)
	}
	if got, want := ev.Facts.ToolsCache.String(), "fresh for 5m0s after listing, public; listed again once stale"; got != want {
		t.Errorf("tools cache %q, want %q", got, want)
	}
	methods := srv.Methods()
	if len(methods) < 2 || methods[0] != "server/discover" || slices.Contains(methods, "initialize") {
		t.Errorf("methods %q, want server/discover first and no initialize", methods)
	}
	for _, r := range srv.Requests() {
		if r.Header != model.Revision20260728 || r.MetaString("io.modelcontextprotocol/protocolVersion") != r.Header {
			t.Errorf("%s: header %q, _meta revision %q; want both 2026-07-28", r.Method, r.Header, r.MetaString("io.modelcontextprotocol/protocolVersion"))
		}
		if r.Meta["io.modelcontextprotocol/clientInfo"] == nil || r.Meta["io.modelcontextprotocol/clientCapabilities"] == nil {
			t.Errorf("%s: _meta %v lacks clientInfo or clientCapabilities", r.Method, r.Meta)
		}
	}
}

// TestStaleListListedAgain: a tools list whose caching hints say it is
// fresh for a second is listed again once stale (a tool the server added
// meanwhile, with no notification, then shows), at most every two
// seconds; a list fresh for five minutes is not asked again meanwhile.
func TestStaleListListedAgain(t *testing.T) {
	short := stateless.Start(t, stateless.Config{TTLMs: 1000, Scope: "private"})
	long := stateless.Start(t, stateless.Config{TTLMs: 300000, Scope: "public"})
	cfg := remoteConfig("short", config.TransportHTTP, short.URL)
	cfg.Servers = append(cfg.Servers, config.ServerSpec{Label: "long", Transport: config.TransportHTTP, URL: long.URL})
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	for _, label := range []string{"short", "long"} {
		if ev := last[label]; ev.State != mcpsession.Ready || len(ev.Tools) != 1 {
			t.Fatalf("%s: %s %q, %d tools; want Ready with 1 tool", label, ev.State, ev.Err, len(ev.Tools))
		}
	}
	listed := time.Now()
	short.AddTool("added")
	long.AddTool("added")
	deadline := time.After(30 * time.Second)
	var ev mcpsession.Event
	for ev.Server != "short" || len(ev.Tools) != 2 {
		select {
		case ev = <-s.Events():
		case <-deadline:
			t.Fatalf("short: no re-listing with the added tool in 30s; methods %q", short.Methods())
		}
	}
	if since := time.Since(listed); since < time.Second {
		t.Errorf("short listed again %s after its list, want after its ttlMs of 1s", since)
	}
	if ev.State != mcpsession.Ready || ev.Tools[1].Name != "added" {
		t.Errorf("short: %s with %q, want Ready with the added tool", ev.State, toolNames(ev.Tools))
	}
	count := func(methods []string) int {
		return len(slices.DeleteFunc(methods, func(m string) bool { return m != "tools/list" }))
	}
	if n := count(long.Methods()); n != 1 {
		t.Errorf("long, fresh for 5 minutes, was listed %d times, want once", n)
	}
}

// TestChangeBeforeListenAcknowledged: a tool a stateless server adds after
// the first listing, before it acknowledges the listen stream (so with no
// notification), shows: the acknowledgement has the tools listed again.
func TestChangeBeforeListenAcknowledged(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{LateTool: "late"})
	cfg := remoteConfig("s", config.TransportHTTP, srv.URL)
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	if ev := last["s"]; ev.State != mcpsession.Ready || len(ev.Tools) == 0 {
		t.Fatalf("s: %s %q, %d tools; want Ready", ev.State, ev.Err, len(ev.Tools))
	}
	ev := last["s"]
	deadline := time.After(settleTimeout)
	for len(ev.Tools) != 2 {
		select {
		case ev = <-s.Events():
		case <-deadline:
			t.Fatalf("s: tools %q after %s, want the late tool too; methods %q", toolNames(ev.Tools), settleTimeout, srv.Methods())
		}
	}
	if got := toolNames(ev.Tools); !slices.Equal(got, []string{"echo", "late"}) {
		t.Errorf("tools %q, want echo and late", got)
	}
}

// TestListenAcknowledgedOnce: a server that acknowledges one listen
// stream again and again has the tools listed again once for it, not once
// an acknowledgement; a tools/list_changed after them is heard as ever.
func TestListenAcknowledgedOnce(t *testing.T) {
	const again = 8
	srv := stateless.Start(t, stateless.Config{LateTool: "late", AckAgain: again})
	cfg := remoteConfig("s", config.TransportHTTP, srv.URL)
	s := open(t, cfg, loader.Options{})
	settle(t, s, cfg)
	deadline := time.Now().Add(settleTimeout)
	for {
		if n := srv.Noted(); n >= 0 && slices.Contains(srv.Methods()[n:], "tools/list") {
			break // the list_changed after the acknowledgements was heard
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tools/list after the list_changed within %s; methods %q", settleTimeout, srv.Methods())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The first listing, the acknowledgement's, the list_changed's.
	listings := slices.DeleteFunc(srv.Methods(), func(m string) bool { return m != "tools/list" })
	if n := len(listings); n > 3 {
		t.Errorf("tools/list was sent %d times for %d acknowledgements of one stream, want at most 3; methods %q", n, again+1, srv.Methods())
	}
}

// TestStatelessRetry: a server that answers -32022 is asked again at a
// revision it lists: the same one when it lists the one asked (the
// conformance suite's request-metadata), the one it lists when asked for
// another (--protocol 2027-01-01), and the settled revision says so.
func TestStatelessRetry(t *testing.T) {
	t.Run("same revision", func(t *testing.T) {
		srv := stateless.Start(t, stateless.Config{RejectFirst: true})
		_, ev := connectStateless(t, srv, loader.Options{})
		if ev.State != mcpsession.Ready || ev.Protocol != model.Revision20260728 {
			t.Fatalf("event = %s %q protocol %s, want Ready on 2026-07-28", ev.State, ev.Err, ev.Protocol)
		}
		want := "2026-07-28 via server/discover, after the server refused 2026-07-28 (-32022 unsupported protocol version; it supports 2026-07-28)"
		if ev.Facts.Settled != want {
			t.Errorf("settled %q, want %q", ev.Facts.Settled, want)
		}
		if m := srv.Methods(); len(m) < 2 || m[0] != "server/discover" || m[1] != "server/discover" || slices.Contains(m, "initialize") {
			t.Errorf("methods %q, want server/discover twice, no initialize", m)
		}
	})
	t.Run("a revision listed", func(t *testing.T) {
		srv := stateless.Start(t, stateless.Config{})
		_, ev := connectStateless(t, srv, loader.Options{Protocol: "2027-01-01"})
		if ev.State != mcpsession.Ready || ev.Protocol != model.Revision20260728 {
			t.Fatalf("event = %s %q protocol %s, want Ready on 2026-07-28", ev.State, ev.Err, ev.Protocol)
		}
		if want := "after the server refused 2027-01-01"; !strings.Contains(ev.Facts.Settled, want) || !strings.Contains(ev.Facts.Settled, "--protocol 2027-01-01") {
			t.Errorf("settled %q, want it to say %q and --protocol", ev.Facts.Settled, want)
		}
	})
}

// TestRefusedListedRevision: a server that refuses 2026-07-28 with -32022
// though it lists 2026-07-28 is asked again once, then connected with
// initialize, and the revision settled on says so rather than that
// mcplens speaks none of what it lists.
func TestRefusedListedRevision(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{Legacy: true, RefuseListed: true})
	_, ev := connectStateless(t, srv, loader.Options{})
	if ev.State != mcpsession.Ready || ev.Protocol != model.Revision20251125 {
		t.Fatalf("event = %s %q protocol %s, want Ready on 2025-11-25", ev.State, ev.Err, ev.Protocol)
	}
	want := "2025-11-25 via initialize: server/discover answered -32022 (unsupported protocol version) to 2026-07-28 again, though it lists 2026-07-28"
	if ev.Facts.Settled != want {
		t.Errorf("settled %q, want %q", ev.Facts.Settled, want)
	}
}

// TestStatelessFallback: a server of 2025-11-25, which answers
// server/discover -32601, is connected with initialize at 2025-11-25, that
// initialize carrying the MCP-Protocol-Version header and the _meta of
// the revision it asks for; the revision settled on says why.
func TestStatelessFallback(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{Legacy: true})
	s, ev := connectStateless(t, srv, loader.Options{})
	if ev.State != mcpsession.Ready || ev.Protocol != model.Revision20251125 {
		t.Fatalf("event = %s %q protocol %s, want Ready on 2025-11-25", ev.State, ev.Err, ev.Protocol)
	}
	if want := "2025-11-25 via initialize: server/discover answered error -32601 (method not found): Method not found"; ev.Facts.Settled != want {
		t.Errorf("settled %q, want %q", ev.Facts.Settled, want)
	}
	reqs := srv.Requests()
	i := slices.IndexFunc(reqs, func(r stateless.Request) bool { return r.Method == "initialize" })
	if i != 1 || reqs[0].Method != "server/discover" {
		t.Fatalf("methods %q, want server/discover then initialize", srv.Methods())
	}
	init := reqs[i]
	if init.Header != model.Revision20251125 || init.MetaString("io.modelcontextprotocol/protocolVersion") != model.Revision20251125 ||
		init.Meta["io.modelcontextprotocol/clientInfo"] == nil || init.Meta["io.modelcontextprotocol/clientCapabilities"] == nil {
		t.Errorf("fallback initialize: header %q, _meta %v; want 2025-11-25 in both, with clientInfo and capabilities", init.Header, init.Meta)
	}

	// Connected again in the same session, the server is not probed again,
	// and the initialize is still the fallback's.
	if !s.Retry("s") {
		t.Fatal("Retry reported false")
	}
	for deadline := time.Now().Add(settleTimeout); ; {
		if ev = nextState(t, s, time.Until(deadline)); ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			break
		}
	}
	reqs = srv.Requests()
	again := reqs[len(reqs)-1]
	for _, r := range reqs[i+1:] {
		if r.Method == "initialize" {
			again = r
		}
	}
	if n := len(slices.DeleteFunc(srv.Methods(), func(m string) bool { return m != "server/discover" })); n != 1 || again.Header != model.Revision20251125 {
		t.Errorf("after Retry: %d probes, last initialize header %q; want one probe in all and the header kept", n, again.Header)
	}
	if want := "2025-11-25 via initialize: the server did not discover when first connected this session"; ev.Facts.Settled != want {
		t.Errorf("after Retry: settled %q, want %q", ev.Facts.Settled, want)
	}

	// As a client of 2025-11-25 (--protocol), nothing is probed, and the
	// initialize is the handshake's alone.
	srv = stateless.Start(t, stateless.Config{Legacy: true})
	_, ev = connectStateless(t, srv, loader.Options{Protocol: model.Revision20251125})
	if m := srv.Methods(); ev.State != mcpsession.Ready || len(m) == 0 || m[0] != "initialize" || srv.Requests()[0].Meta != nil {
		t.Errorf("at 2025-11-25: %s, methods %q, first _meta %v; want Ready, initialize first, no _meta", ev.State, m, srv.Requests()[0].Meta)
	}
	if want := "2025-11-25 via initialize, asked for 2025-11-25 (--protocol 2025-11-25)"; ev.Facts.Settled != want {
		t.Errorf("settled %q, want %q", ev.Facts.Settled, want)
	}
}

// TestStatelessNeedsLogin: a 401 or 403 to the probe is a server that
// wants a login (a *loader.LoginRequiredError), not one that does not
// discover: initialize is never sent.
func TestStatelessNeedsLogin(t *testing.T) {
	for _, status := range []int{401, 403} {
		srv := stateless.Start(t, stateless.Config{LoginStatus: status})
		_, ev := connectStateless(t, srv, loader.Options{})
		if ev.State != mcpsession.Failed || !ev.NeedsLogin || !strings.Contains(ev.Err, "needs a login") {
			t.Errorf("%d: event = %s (needs login %v) %q, want Failed needing a login", status, ev.State, ev.NeedsLogin, ev.Err)
		}
		if m := srv.Methods(); !slices.Equal(m, []string{"server/discover"}) {
			t.Errorf("%d: methods %q, want the probe alone", status, m)
		}
	}
	var lerr loader.LoginRequiredError
	if !(&lerr).NeedsLogin() {
		t.Error("LoginRequiredError.NeedsLogin() = false")
	}
}

// TestStatelessOnlyServer: asked with initialize (a client of 2025-11-25),
// a server of the stateless revisions alone refuses; the failure says it
// speaks only those, and how to connect, not that it may be a legacy SSE
// server.
func TestStatelessOnlyServer(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{})
	_, ev := connectStateless(t, srv, loader.Options{Protocol: model.Revision20251125})
	if ev.State != mcpsession.Failed {
		t.Fatalf("event = %s, want Failed", ev.State)
	}
	for _, want := range []string{"refused initialize with an HTTP 4xx; it speaks only the stateless protocol (it supports 2026-07-28)", "--protocol 2026-07-28"} {
		if !strings.Contains(ev.Err, want) {
			t.Errorf("error %q, want it to say %q", ev.Err, want)
		}
	}
	if strings.Contains(ev.Err, "SSE") {
		t.Errorf("error %q points at the legacy SSE transport", ev.Err)
	}
}

// TestStatelessLogLevel: on a stateless connection the log level goes in
// the _meta of each request from then on; logging/setLevel, which the
// revision removed, is never sent.
func TestStatelessLogLevel(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{})
	s, ev := connectStateless(t, srv, loader.Options{})
	if ev.State != mcpsession.Ready {
		t.Fatalf("event = %s %q, want Ready", ev.State, ev.Err)
	}
	if err := s.SetLogLevel("s", "debug"); err != nil {
		t.Fatalf("SetLogLevel: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Call(ctx, "s", "echo", nil); err != nil {
		t.Fatalf("Call: %v", err)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Method != "tools/call" || last.MetaString("io.modelcontextprotocol/logLevel") != "debug" {
		t.Errorf("last request %s, _meta %v; want tools/call with logLevel debug", last.Method, last.Meta)
	}
	if slices.Contains(srv.Methods(), "logging/setLevel") {
		t.Errorf("methods %q: logging/setLevel sent on a stateless connection", srv.Methods())
	}
}

// TestProtocolSwitch: SetProtocol forces a revision from the next connect
// on, and Reconnect with the same handshake connects again at it.
func TestProtocolSwitch(t *testing.T) {
	srv := stateless.Start(t, stateless.Config{Legacy: true})
	cfg := remoteConfig("s", config.TransportHTTP, srv.URL)
	s := open(t, cfg, loader.Options{})
	if _, last := settle(t, s, cfg); last["s"].State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", last["s"])
	}
	s.SetProtocol(model.Revision20250618)
	if s.Protocol() != model.Revision20250618 || !s.Reconnect("s", model.NeutralHandshake()) {
		t.Fatalf("Protocol() = %q, Reconnect at 2025-06-18 reported no change", s.Protocol())
	}
	deadline := time.Now().Add(settleTimeout)
	for time.Now().Before(deadline) {
		ev := nextState(t, s, time.Until(deadline))
		if ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			// The server answers 2025-11-25 whatever it is asked, which a
			// client of 2025-06-18 does not speak.
			if ev.State != mcpsession.Failed || !strings.Contains(ev.Err, `answered protocol "2025-11-25"`) {
				t.Errorf("after the switch: %s %q, want Failed on the revision answered", ev.State, ev.Err)
			}
			break
		}
	}
	var last stateless.Request
	for _, r := range srv.Requests() {
		if r.Method == "initialize" {
			last = r
		}
	}
	if !strings.Contains(string(last.Params), `"protocolVersion":"2025-06-18"`) {
		t.Errorf("last initialize %s, want it at 2025-06-18", last.Params)
	}
}
