package probe_test

import (
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/audit/probe"
	"github.com/mcplens/mcplens/internal/testkit/auditee"
	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

func TestMain(m *testing.M) {
	code := m.Run()
	auditee.Cleanup()
	hostile.Cleanup()
	os.Exit(code)
}

// handshake is mcplens's own, asking for protocol ("" for its default).
func handshake(protocol string) model.Handshake {
	h := model.NeutralHandshake()
	if protocol != "" {
		h.ProtocolVersion = protocol
	}
	return h
}

// ids lists the check ids of r's findings, in order, each once.
func ids(r audit.Result) []string {
	var out []string
	for _, f := range r.Findings {
		if !slices.Contains(out, f.Check) {
			out = append(out, f.Check)
		}
	}
	return out
}

// TestCorrectServerGivesNone: the correct auditee, over stdio and over
// streamable HTTP, passes every check that applies.
func TestCorrectServerGivesNone(t *testing.T) {
	for _, tc := range []struct{ transport, protocol string }{
		{"stdio", ""}, {"http", ""}, {"stdio", "2026-07-28"}, {"http", "2026-07-28"},
	} {
		t.Run(tc.transport+tc.protocol, func(t *testing.T) {
			spec := auditee.Stdio(t, "")
			if tc.transport == "http" {
				spec = auditee.HTTP(t, "")
			}
			r := probe.Run(context.Background(), spec, probe.Options{Handshake: handshake(tc.protocol)})
			if tc.protocol != "" && r.Revision != tc.protocol {
				t.Fatalf("answered %q, want the stateless %s", r.Revision, tc.protocol)
			}
			if len(r.Findings) > 0 {
				t.Fatalf("findings on the correct server: %+v", r.Findings)
			}
			if len(r.Passed) < 25 {
				t.Fatalf("only %d checks passed: %v (skipped %v)", len(r.Passed), r.Passed, r.Skipped)
			}
			if r.Revision == "" || r.ServerInfo == "" {
				t.Fatalf("no revision or server info: %+v", r)
			}
		})
	}
}

// TestEachFaultGivesItsFinding: a server wrong in one way gives exactly
// the finding of that way, with the frames that prove it.
func TestEachFaultGivesItsFinding(t *testing.T) {
	for _, m := range auditee.Modes {
		t.Run(m.Mode, func(t *testing.T) {
			spec := auditee.Stdio(t, m.Mode)
			if m.Transport == "http" {
				spec = auditee.HTTP(t, m.Mode)
			}
			r := probe.Run(context.Background(), spec, probe.Options{Grace: 500 * time.Millisecond, Handshake: handshake(m.Protocol)})
			if got := ids(r); !slices.Equal(got, m.Checks) {
				t.Fatalf("findings %v, want exactly %v: %+v", got, m.Checks, r.Findings)
			}
			f := r.Findings[0]
			if f.Section == "" || f.Message == "" {
				t.Fatalf("finding without its section or message: %+v", f)
			}
			if m.Mode != "ignore-stdin-close" && len(f.Evidence) == 0 {
				t.Fatalf("finding without evidence: %+v", f)
			}
			if slices.Contains(r.Passed, m.Checks[0]) {
				t.Fatalf("%s both found and passed", m.Checks[0])
			}
		})
	}
}

// TestSilentServerIsBounded: a server that never answers initialize gives
// a finding within the probe's deadline, not a hang.
func TestSilentServerIsBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := probe.Run(ctx, hostile.Spec(t, "silent", "silent-initialize"), probe.Options{Probe: 500 * time.Millisecond, Grace: 200 * time.Millisecond})
	if ctx.Err() != nil {
		t.Fatal("the audit outlived its bound")
	}
	if got := ids(r); !slices.Contains(got, "lifecycle.initialize") {
		t.Fatalf("findings %v, want lifecycle.initialize", got)
	}
}

// TestHostileServersAreBounded: servers that flood, stall, stop reading or
// write garbage each give their finding within the probes' bounds.
func TestHostileServersAreBounded(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		flags []string
		want  string
	}{
		{"junk", nil, "stdio.stdout-noise"},
		{"stray", nil, "jsonrpc.message"},
		{"no-newline", nil, "lifecycle.initialize"},
		{"huge-line", []string{"-size", "8388608"}, "stdio.stdout-noise"},
		{"stop-reading", nil, "stdio.stdin-close"},
		{"cursor-loop", nil, "listing.cursor-loop"},
		{"list-changed-flood", nil, "tools.input-schema"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// A line limit of 1 MiB: the 8 MiB line is over it.
			r := probe.Run(ctx, hostile.Spec(t, tc.mode, tc.mode, tc.flags...), probe.Options{Probe: time.Second, Grace: 300 * time.Millisecond,
				Limits: loader.Limits{Line: 1 << 20}})
			if ctx.Err() != nil {
				t.Fatal("the audit outlived its bound")
			}
			if got := ids(r); !slices.Contains(got, tc.want) {
				t.Fatalf("findings %v, want %s among them", got, tc.want)
			}
			for _, f := range r.Frames {
				if len(f.Bytes) > 64<<10 {
					t.Fatalf("a frame of %d bytes kept", len(f.Bytes))
				}
			}
		})
	}
}

// TestHostileHTTPIsBounded: endless bodies and events, a gzip bomb and a
// huge error body each end in a finding within the probe's deadline and
// the body bound.
func TestHostileHTTPIsBounded(t *testing.T) {
	srv := httptest.NewServer(hostile.HTTP())
	defer srv.Close()
	for _, mode := range []string{"endless-body", "endless-event", "gzip-bomb", "huge-error", "listen-flood"} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			spec := config.ServerSpec{Label: mode, Transport: config.TransportHTTP, URL: srv.URL + "/" + mode}
			r := probe.Run(ctx, spec, probe.Options{Probe: time.Second})
			if ctx.Err() != nil {
				t.Fatal("the audit outlived its bound")
			}
			want := "lifecycle.capabilities"
			if mode == "listen-flood" {
				want = "http.origin" // its fault is on the GET stream, which the audit does not read; it checks no Origin
			}
			if got := ids(r); !slices.Contains(got, want) {
				t.Fatalf("findings %v, want %s among them", got, want)
			}
		})
	}
}

// TestSecretsMasked: a server that dumps its environment into a tool's
// result (called with --call) leaves the config's secret masked in every
// frame and message of the audit.
func TestSecretsMasked(t *testing.T) {
	const secret = "sk-live-0123456789abcdefXYZ"
	spec := hostile.Spec(t, "leak", "leak")
	spec.Env = append(spec.Env, config.EnvVar{Key: "API_TOKEN", Value: secret})
	r := probe.Run(context.Background(), spec, probe.Options{Calls: []probe.Call{{Name: "dump"}}, Grace: 300 * time.Millisecond})
	masked := false
	for _, f := range r.Frames {
		if strings.Contains(string(f.Bytes), secret) {
			t.Fatalf("a frame holds the secret: %s", f.Bytes)
		}
		masked = masked || strings.Contains(string(f.Bytes), "API_TOKEN=****")
	}
	if !masked {
		t.Fatal("no frame holds the masked dump: the test proves nothing")
	}
	for _, f := range r.Findings {
		for _, e := range f.Evidence {
			if strings.Contains(f.Message+string(e.Bytes), secret) {
				t.Fatalf("finding %s holds the secret", f.Check)
			}
		}
	}
}

// TestSilentAfterInitializeGivesUp: a server that answers initialize and
// nothing after costs a few probes' deadlines: after three requests in a
// row go unanswered, the audit sends no more.
func TestSilentAfterInitializeGivesUp(t *testing.T) {
	r := probe.Run(context.Background(), auditee.Stdio(t, "silent-after-init"), probe.Options{Probe: 300 * time.Millisecond, Grace: 300 * time.Millisecond})
	if got := ids(r); !slices.Contains(got, "lifecycle.ping") {
		t.Fatalf("findings %v, want lifecycle.ping among them", got)
	}
	requests := 0
	for _, f := range r.Frames {
		if f.Dir == mcpsession.Out && strings.Contains(string(f.Bytes), `"id":`) {
			requests++
		}
	}
	// initialize, then ping, the unknown method and invalid params go
	// unanswered; the malformed line is no request; nothing more.
	if requests > 5 {
		t.Errorf("%d requests sent to a server that answers nothing", requests)
	}
}
