package surface_test

import (
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/surface"
)

// A server waiting for a login is its own status and one warning, not a
// failure; once it connects the status goes.
func TestNeedsLogin(t *testing.T) {
	const hint = "needs login: run mcplens login mcp.json remote"
	snap := surface.New(specs("remote", "broken"), nil)
	snap.Apply(mcpsession.Event{Server: "remote", State: mcpsession.Failed, NeedsLogin: true, Err: hint})
	snap.Apply(mcpsession.Event{Server: "broken", State: mcpsession.Failed, Err: "boom"})
	a := surface.Assess(snap, surface.Options{Policy: policy(t, "lionagi")})
	if a.Servers[0].Status != surface.NeedsLogin || a.Servers[1].Status != surface.Failed {
		t.Fatalf("statuses = %q, %q; want needs login, failed", a.Servers[0].Status, a.Servers[1].Status)
	}
	var got []surface.Finding
	for _, f := range a.Findings {
		if f.Server == "remote" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Kind != "needs-login" || got[0].Severity != surface.Warning || got[0].Evidence != hint {
		t.Errorf("remote's findings = %+v; want one needs-login warning with the hint", got)
	}
	snap.Apply(ready("remote", tool("x")))
	if a := surface.Assess(snap, surface.Options{Policy: policy(t, "lionagi")}); a.Servers[0].Status != surface.OK {
		t.Errorf("after connecting: %q, want ok", a.Servers[0].Status)
	}
}
