package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/headertest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
	"github.com/mcplens/mcplens/surfacediff"
)

// rejectedTools has one valid tool and one whose x-mcp-header is on an
// object, which a client over streamable HTTP at 2026-07-28 rejects.
const rejectedTools = `[
 {"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
 {"name":"invalid_object_header","inputSchema":{"type":"object","properties":{"data":{"type":"object","x-mcp-header":"Data"}}}}
]`

const rejectedReason = `rejected for its x-mcp-header: property data: x-mcp-header "Data" is on a parameter of type "object"`

// settledAt2026 connects to srv at 2026-07-28 and settles, as call does.
func settledAt2026(t *testing.T, srv *headertest.Server) (*loader.Session, *surface.Snapshot) {
	t.Helper()
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "hdr", Transport: config.TransportHTTP, URL: srv.URL}}}
	h := model.NeutralHandshake()
	h.ProtocolVersion = model.Revision20260728
	session := loader.Open(cfg, loader.Options{Handshake: h, Timeout: 30 * time.Second})
	t.Cleanup(func() { _ = session.Close() })
	snap, err := settle.Session(context.Background(), cfg, session, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return session, snap
}

func calls(srv *headertest.Server, tool string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == "tools/call" && bytes.Contains(r.Body, []byte(`"name":"`+tool+`"`)) {
			n++
		}
	}
	return n
}

// TestCallRejectedTool: call refuses a tool a client rejects for its
// x-mcp-header, exit 2 with the reason, sending nothing; --no-validate
// calls it; the valid tool beside it is called with its Mcp-Param header.
func TestCallRejectedTool(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: rejectedTools})
	session, snap := settledAt2026(t, srv)
	policy, _ := model.PolicyNamed("claude-code")
	reg := policy.Apply(snap.Catalogues())
	var out, errb bytes.Buffer
	c := &caller{ctx: context.Background(), std: stdio{out: &out, err: &errb}, session: session, snap: snap, limit: 30 * time.Second, validate: true}

	_, _, refused, err := c.resolve(reg, "invalid_object_header")
	if refused == nil || err != nil {
		t.Fatalf("refused %v, err %v", refused, err)
	}
	if code := exit(&errb, "call", refused); code != exitUsage || !strings.Contains(errb.String(), "is not registered: "+rejectedReason) || !strings.Contains(errb.String(), "nothing was sent") {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	if n := calls(srv, "invalid_object_header"); n != 0 {
		t.Fatalf("the server got %d calls of the rejected tool, want 0", n)
	}

	c.validate = false
	rt, how, refused, err := c.resolve(reg, "invalid_object_header")
	if refused != nil || err != nil || rt.Wire != "invalid_object_header" || !strings.Contains(how, "--no-validate") {
		t.Fatalf("under --no-validate: %+v %q %v %v", rt, how, refused, err)
	}
	if err := c.call(rt, "call", json.RawMessage(`{"data":{"k":1}}`)); err != nil {
		t.Fatalf("%v, stderr:\n%s", err, errb.String())
	}
	if n := calls(srv, "invalid_object_header"); n != 1 {
		t.Fatalf("the server got %d calls of the rejected tool under --no-validate, want 1", n)
	}

	c.validate = true
	rt, _, _, err = c.resolve(reg, "valid_tool")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.call(rt, "call", json.RawMessage(`{"region":"eu"}`)); err != nil {
		t.Fatalf("%v, stderr:\n%s", err, errb.String())
	}
	if req, _ := srv.Last("tools/call"); req.Header.Get("Mcp-Param-Region") != "eu" {
		t.Fatalf("Mcp-Param-Region = %q, want eu", req.Header.Get("Mcp-Param-Region"))
	}
}

// TestRejectedToolInReports: every report says the rejected tool is not
// registered, and why.
func TestRejectedToolInReports(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: rejectedTools})
	_, snap := settledAt2026(t, srv)
	policy, _ := model.PolicyNamed("claude-code")
	a := surface.Assess(snap, surface.Options{Policy: policy})
	r := report.Build("test", a)
	for _, format := range []string{"text", "json", "sarif", "markdown", "junit"} {
		var b bytes.Buffer
		if err := report.Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "rejected for its x-mcp-header: property data:") {
			t.Errorf("%s report does not say why invalid_object_header is not registered:\n%s", format, b.String())
		}
	}
	if st := a.Servers[0].Status; st != surface.Incomplete {
		t.Errorf("status = %v, want incomplete", st)
	}
}

// TestRejectedToolInDiff: the same server seen by a client at 2025-11-25
// (the tool registered) and at 2026-07-28 (rejected) differs by that tool,
// and the diff says why.
func TestRejectedToolInDiff(t *testing.T) {
	modern := headertest.Start(t, headertest.Options{Tools: rejectedTools})
	legacy := headertest.Start(t, headertest.Options{Tools: rejectedTools, Legacy: true})
	_, after := settledAt2026(t, modern)
	_, before := settledAt2026(t, legacy) // it refuses the probe: 2025-11-25
	if p := before.Servers[0].Protocol; p != model.Revision20251125 {
		t.Fatalf("legacy server settled on %q", p)
	}
	a := surfacediff.Capture("cfg", "2025-11-25", before, nil)
	b := surfacediff.Capture("cfg", "2026-07-28", after, nil)
	var out bytes.Buffer
	if err := report.WriteDiff(&out, []*surfacediff.Diff{surfacediff.Compare(a, b, "claude-code")}, "text", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"invalid_object_header" on hdr was registered as "mcp__hdr__invalid_object_header", now dropped: rejected for its x-mcp-header: property data:`) {
		t.Fatalf("diff does not show the rejected tool and why:\n%s", out.String())
	}
	if strings.Contains(out.String(), "no usable name") {
		t.Fatalf("diff calls the rejected row nameless:\n%s", out.String())
	}
}
