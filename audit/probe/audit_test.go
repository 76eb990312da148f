package probe_test

import (
	"cmp"
	"context"
	"encoding/json"
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
		{"stdio", ""}, {"http", ""}, {"stdio", "2025-11-25"}, {"http", "2025-11-25"}, {"stdio", "2026-07-28"}, {"http", "2026-07-28"},
	} {
		t.Run(tc.transport+tc.protocol, func(t *testing.T) {
			spec := auditee.Stdio(t, "")
			if tc.transport == "http" {
				spec = auditee.HTTP(t, "")
			}
			r := probe.Run(context.Background(), spec, probe.Options{Handshake: handshake(tc.protocol)})
			want := cmp.Or(tc.protocol, model.NeutralHandshake().ProtocolVersion)
			if r.Revision != want {
				t.Fatalf("settled on %q, want %s", r.Revision, want)
			}
			// Each revision's own checks run; the other's are not
			// applicable, and say so.
			handshakeOnly := []string{"lifecycle.ping", "logging.set-level", "logging.invalid-level"}
			for _, id := range handshakeOnly {
				_, skipped := r.Skipped[id]
				if stateless := r.Revision >= model.Revision20260728; skipped != stateless || slices.Contains(r.Passed, id) == stateless {
					t.Errorf("on %s, %s passed %v, not applicable %v", r.Revision, id, slices.Contains(r.Passed, id), skipped)
				}
			}
			statelessOnly := []string{"lifecycle.server-info", "stateless.unsupported-version"}
			if tc.transport == "http" {
				statelessOnly = append(statelessOnly, "stateless.meta-required", "stateless.removed-methods")
			}
			for _, id := range statelessOnly {
				_, skipped := r.Skipped[id]
				if stateless := r.Revision >= model.Revision20260728; skipped == stateless || slices.Contains(r.Passed, id) != stateless {
					t.Errorf("on %s, %s passed %v, not applicable %v", r.Revision, id, slices.Contains(r.Passed, id), skipped)
				}
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
// A fault of every revision is committed at each; a fault of one era at
// that era.
func TestEachFaultGivesItsFinding(t *testing.T) {
	for _, m := range auditee.Modes {
		revisions := []string{m.Protocol}
		if m.Protocol == "" {
			revisions = []string{model.Revision20251125, model.Revision20260728}
		}
		for _, rev := range revisions {
			t.Run(m.Mode+"@"+rev, func(t *testing.T) {
				r := auditMode(t, m.Mode, m.Transport, rev)
				if r.Revision != rev {
					t.Fatalf("settled on %q, want %s", r.Revision, rev)
				}
				wantFindings(t, r, m.Mode, m.Checks)
			})
		}
	}
}

// TestEraFaultsAtTheOtherEra: a fault of one era is no fault at the other,
// where its check is not applicable (and says so) or, for a rule of both
// eras the fault breaks at one only, passes.
func TestEraFaultsAtTheOtherEra(t *testing.T) {
	probedOnBoth := []string{"lifecycle.notifications", "caching.hints", "http.multiple-streams", "lifecycle.version", "jsonrpc.unknown-method"}
	for _, m := range auditee.Modes {
		if m.Protocol == "" {
			continue
		}
		other := model.Revision20260728
		if m.Protocol == other {
			other = model.Revision20251125
		}
		t.Run(m.Mode+"@"+other, func(t *testing.T) {
			r := auditMode(t, m.Mode, m.Transport, other)
			if r.Revision != other || len(r.Findings) > 0 {
				t.Fatalf("on %q: findings %+v, want none on %s", r.Revision, r.Findings, other)
			}
			for _, id := range m.Checks {
				why, skipped := r.Skipped[id]
				if slices.Contains(probedOnBoth, id) != slices.Contains(r.Passed, id) || skipped == slices.Contains(probedOnBoth, id) {
					t.Errorf("%s: passed %v, not applicable %v (%s)", id, slices.Contains(r.Passed, id), skipped, why)
				}
			}
		})
	}
}

// auditMode audits the auditee in mode over transport, asking for rev.
func auditMode(t *testing.T, mode, transport, rev string) audit.Result {
	t.Helper()
	spec := auditee.Stdio(t, mode)
	if transport == "http" {
		spec = auditee.HTTP(t, mode)
	}
	return probe.Run(context.Background(), spec, probe.Options{Grace: 500 * time.Millisecond, Handshake: handshake(rev)})
}

// wantFindings wants exactly the findings of checks, the first with its
// section, message and evidence.
func wantFindings(t *testing.T, r audit.Result, mode string, checks []string) {
	t.Helper()
	if got := ids(r); !slices.Equal(got, checks) {
		t.Fatalf("findings %v, want exactly %v: %+v", got, checks, r.Findings)
	}
	f := r.Findings[0]
	if f.Section == "" || f.Message == "" {
		t.Fatalf("finding without its section or message: %+v", f)
	}
	if mode != "ignore-stdin-close" && len(f.Evidence) == 0 {
		t.Fatalf("finding without evidence: %+v", f)
	}
	if slices.Contains(r.Passed, checks[0]) {
		t.Fatalf("%s both found and passed", checks[0])
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

// TestOverLimitAnswer: an initialize answered with a line over the line
// limit is not said to be unanswered alone: the finding names the line.
func TestOverLimitAnswer(t *testing.T) {
	r := probe.Run(context.Background(), hostile.Spec(t, "huge-initialize", "huge-initialize", "-size", "2097152"),
		probe.Options{Probe: time.Second, Grace: 300 * time.Millisecond, Limits: loader.Limits{Line: 1 << 20}})
	for _, f := range r.Findings {
		if f.Check == "lifecycle.initialize" {
			if !strings.Contains(f.Message, "over the 1048576-byte line limit") {
				t.Errorf("lifecycle.initialize: %q, want the line over the limit named", f.Message)
			}
			return
		}
	}
	t.Fatalf("findings %v, want lifecycle.initialize", ids(r))
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
			const event = 64 << 10
			r := probe.Run(ctx, spec, probe.Options{Probe: time.Second, Limits: loader.Limits{Event: event}})
			if ctx.Err() != nil {
				t.Fatal("the audit outlived its bound")
			}
			want := "lifecycle.capabilities"
			if mode == "listen-flood" {
				want = "http.origin" // its fault is on the GET stream; it checks no Origin
			}
			if got := ids(r); !slices.Contains(got, want) {
				t.Fatalf("findings %v, want %s among them", got, want)
			}
			// The GET stream, read while the multiple-streams probe's
			// requests are answered, is read no further than the event
			// bound (its frame: a line of header, the event's data).
			for _, f := range r.Frames {
				if strings.HasPrefix(string(f.Bytes), "GET stream") && f.Size > event+200 {
					t.Fatalf("the GET stream was read for %d bytes, past the %d-byte event bound", f.Size, event)
				}
			}
		})
	}
}

// TestHostileStatelessIsBounded: a 2026-07-28 server that answers the
// stateless probes (no _meta, removed and unknown methods) with bodies
// that never end gives their findings within the probes' bounds.
func TestHostileStatelessIsBounded(t *testing.T) {
	srv := httptest.NewServer(hostile.HTTP())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	spec := config.ServerSpec{Label: "stateless-flood", Transport: config.TransportHTTP, URL: srv.URL + "/stateless-flood"}
	const body = 1 << 20
	r := probe.Run(ctx, spec, probe.Options{Probe: time.Second, Handshake: handshake(model.Revision20260728), Limits: loader.Limits{Body: body}})
	if ctx.Err() != nil {
		t.Fatal("the audit outlived its bound")
	}
	if r.Revision != model.Revision20260728 {
		t.Fatalf("settled on %q", r.Revision)
	}
	got := ids(r)
	for _, id := range []string{"stateless.meta-required", "stateless.removed-methods", "jsonrpc.unknown-method"} {
		if !slices.Contains(got, id) {
			t.Errorf("findings %v, want %s among them", got, id)
		}
	}
	biggest := 0
	for _, f := range r.Frames {
		if f.Size > body+1024 {
			t.Fatalf("a frame of %d bytes, past the %d-byte body bound", f.Size, body)
		}
		biggest = max(biggest, f.Size)
	}
	if biggest < body/2 {
		t.Fatalf("the largest frame is %d bytes: no endless answer was read up to the bound", biggest)
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
// row go unanswered, the audit sends no more. So whichever revision is
// asked for: mcplens's own first probes with server/discover (unanswered
// too), then falls back to initialize, which is answered.
func TestSilentAfterInitializeGivesUp(t *testing.T) {
	for _, rev := range []string{"", model.Revision20251125} {
		t.Run("asking "+cmp.Or(rev, "the default"), func(t *testing.T) {
			r := probe.Run(context.Background(), auditee.Stdio(t, "silent-after-init"), probe.Options{Probe: 300 * time.Millisecond, Grace: 300 * time.Millisecond, Handshake: handshake(rev)})
			if got := ids(r); !slices.Contains(got, "lifecycle.ping") || r.Revision != model.Revision20251125 {
				t.Fatalf("findings %v on %q, want lifecycle.ping among them on %s", got, r.Revision, model.Revision20251125)
			}
			// The requests (JSON with an id: the malformed line is none)
			// sent after the last answer.
			unanswered := 0
			for _, f := range r.Frames {
				var m struct{ ID json.RawMessage }
				switch {
				case f.Dir == mcpsession.In:
					unanswered = 0
				case json.Unmarshal(f.Bytes, &m) == nil && len(m.ID) > 0:
					unanswered++
				}
			}
			if unanswered != 3 {
				t.Errorf("%d requests sent after the last answer, want 3 and no more", unanswered)
			}
		})
	}
}

// TestLongServerTextIsClipped: a server whose name, tool name and error
// messages are 1 MiB each gives its findings with each text cut, so that a
// report quotes kilobytes of it, not megabytes.
func TestLongServerTextIsClipped(t *testing.T) {
	r := probe.Run(context.Background(), hostile.Spec(t, "long", "long-texts"), probe.Options{Probe: time.Second, Grace: 300 * time.Millisecond})
	named := false
	for _, f := range r.Findings {
		if len(f.Subject) > 4<<10 || len(f.Message) > 4<<10 {
			t.Errorf("finding %s keeps %d bytes of subject and %d of message", f.Check, len(f.Subject), len(f.Message))
		}
		named = named || f.Check == "tools.name" && strings.HasPrefix(f.Subject, "long_name")
	}
	if !named {
		t.Errorf("findings %v: the long tool name is not among them", ids(r))
	}
	if len(r.ServerInfo) > 4<<10 || !strings.HasPrefix(r.ServerInfo, "hostile") {
		t.Errorf("serverInfo of %d bytes kept, starting %.20q", len(r.ServerInfo), r.ServerInfo)
	}
}
