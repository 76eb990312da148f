package surface_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

func tool(name string) model.Tool {
	raw, _ := json.Marshal(map[string]string{"name": name})
	return model.Tool{Name: name, NameOK: name != "", NameProblem: map[bool]string{true: "empty name"}[name == ""], Raw: raw}
}

func specs(labels ...string) []config.ServerSpec {
	out := make([]config.ServerSpec, len(labels))
	for i, l := range labels {
		out[i] = config.ServerSpec{Label: l, Command: l}
	}
	return out
}

func ready(label string, tools ...model.Tool) mcpsession.Event {
	return mcpsession.Event{Server: label, State: mcpsession.Ready, Tools: tools}
}

func policy(t *testing.T, name string) model.Policy {
	t.Helper()
	p, ok := model.PolicyNamed(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	return p
}

func TestApply(t *testing.T) {
	snap := surface.New(specs("a", "b", "a"), nil)
	if got := snap.Servers[2]; got.State != mcpsession.Failed || !strings.Contains(got.Err, "declared twice") {
		t.Errorf("second a = %v %q, want failed as declared twice", got.State, got.Err)
	}
	if snap.Settled() {
		t.Errorf("Settled() before any event")
	}
	if snap.Apply(mcpsession.Event{Server: "a", Frames: true}) || snap.Apply(ready("zz")) {
		t.Errorf("Apply took a wire event or an undeclared server's")
	}
	v1 := []model.Tool{tool("x")}
	if !snap.Apply(ready("a", v1...)) {
		t.Fatalf("Apply(ready a) changed nothing")
	}
	snap.Apply(mcpsession.Event{Server: "b", State: mcpsession.Failed, Err: "boom", Stderr: "tail\n"})
	if !snap.Settled() {
		t.Errorf("Settled() = false with a ready, b failed")
	}
	a := &snap.Servers[0]
	if !a.Listed || len(a.Tools) != 1 || a.Lists != 0 || a.Prev != nil || a.Size != len(v1[0].Raw) {
		t.Errorf("a after its first list: %+v", a)
	}
	before := snap.Clone()
	snap.Apply(ready("a", v1...)) // the same list again: not a re-listing
	if a.Lists != 0 {
		t.Errorf("the same list counted as a re-listing")
	}
	v2 := []model.Tool{tool("x"), tool("y")}
	snap.Apply(ready("a", v2...))
	if a.Lists != 1 || len(a.Prev) != 1 || len(a.Tools) != 2 {
		t.Errorf("after a re-listing: lists %d, prev %d, tools %d", a.Lists, len(a.Prev), len(a.Tools))
	}
	if len(before.Servers[0].Tools) != 1 {
		t.Errorf("a clone changed with the snapshot")
	}
	snap.Apply(mcpsession.Event{Server: "a", State: mcpsession.Failed, Err: "gone"})
	if a.Listed || a.Tools != nil || a.Prev != nil {
		t.Errorf("a failed server keeps its tools: %+v", a)
	}
	if cats := snap.Catalogues(); len(cats) != 0 {
		t.Errorf("Catalogues() = %v, want none listed", cats)
	}
}

func TestCollect(t *testing.T) {
	snap := surface.New(specs("a", "b"), nil)
	events := make(chan mcpsession.Event, 4)
	events <- ready("a", tool("x"))
	events <- mcpsession.Event{Server: "b", State: mcpsession.Failed, Err: "no"}
	if err := surface.Collect(context.Background(), events, snap); err != nil || !snap.Settled() {
		t.Errorf("Collect = %v, settled %v", err, snap.Settled())
	}
	waiting := surface.New(specs("c"), nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := surface.Collect(ctx, make(chan mcpsession.Event), waiting); err == nil {
		t.Errorf("Collect with an ended context = nil")
	}
}

// One rule for a server's status, whatever reads it.
func TestStatus(t *testing.T) {
	filtered := tool("hidden")
	filtered.FilteredBy = "excludeTools lists it"
	tests := []struct {
		name   string
		policy string
		ev     *mcpsession.Event
		want   surface.Status
	}{
		{"connecting", "lionagi-legacy", nil, surface.Connecting},
		{"closed", "lionagi-legacy", &mcpsession.Event{Server: "s", State: mcpsession.Closed}, surface.Closed},
		{"failed", "lionagi-legacy", &mcpsession.Event{Server: "s", State: mcpsession.Failed, Err: "x"}, surface.Failed},
		{"ok", "lionagi-legacy", ptr(ready("s", tool("a"))), surface.OK},
		{"filtered row", "lionagi-legacy", ptr(ready("s", tool("a"), filtered)), surface.OK},
		{"nameless row", "lionagi-legacy", ptr(ready("s", tool("a"), tool(""))), surface.Incomplete},
		{"policy failed", "lionagi", ptr(ready("s", tool("a.b"))), surface.PolicyFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := surface.New(specs("s"), nil)
			if tc.ev != nil {
				snap.Apply(*tc.ev)
			}
			a := surface.Derive(snap, surface.Options{Policy: policy(t, tc.policy)})
			if got := a.Servers[0].Status; got != tc.want {
				t.Errorf("status = %s, want %s", got, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// A disconnected server has a status of its own and offers nothing: its
// tools leave the registry until it is listed again.
func TestStatusDisconnected(t *testing.T) {
	snap := surface.New(specs("s", "t"), nil)
	snap.Apply(ready("s", tool("a")))
	snap.Apply(ready("t", tool("b")))
	snap.Apply(mcpsession.Event{Server: "s", State: mcpsession.Disconnected})
	a := surface.Derive(snap, surface.Options{Policy: policy(t, "lionagi-legacy")})
	if got := a.Servers[0].Status; got != surface.Disconnected {
		t.Errorf("status = %s, want disconnected", got)
	}
	if got := a.Servers[1].Status; got != surface.OK {
		t.Errorf("the other server's status = %s, want ok", got)
	}
	if sv := snap.Servers[0]; sv.Listed || sv.Tools != nil || !snap.Settled() {
		t.Errorf("a disconnected server keeps its tools (%+v) or is not settled", sv)
	}
	snap.Apply(mcpsession.Event{Server: "s", State: mcpsession.Connecting})
	snap.Apply(ready("s", tool("a")))
	if got := surface.Derive(snap, surface.Options{Policy: policy(t, "lionagi-legacy")}).Servers[0].Status; got != surface.OK {
		t.Errorf("status once connected again = %s, want ok", got)
	}
}

// Findings come in one order, server by server, the server's own first,
// then row by row; what the file says of itself last.
func TestFindingsOrder(t *testing.T) {
	sp := specs("a", "b", "c")
	sp[1].Findings = []string{`unknown key "bogus"`}
	snap := surface.New(sp, []string{"the file has comments"})
	snap.Apply(ready("a", tool("request"), tool(strings.Repeat("x", 70))))
	fault := model.Finding{Severity: model.Warn, Kind: "protocol", Server: "b", Evidence: "stray answer"}
	snap.Apply(mcpsession.Event{Server: "b", State: mcpsession.Ready, Tools: []model.Tool{tool("request")}, Findings: []model.Finding{fault}})
	snap.Apply(mcpsession.Event{Server: "c", State: mcpsession.Failed, Err: "exit status 3", Stderr: "boom\n"})
	a := surface.Assess(snap, surface.Options{Policy: policy(t, "lionagi-legacy"), Profiles: model.DefaultProfiles()})
	var got []string
	for _, f := range a.Findings {
		got = append(got, strings.TrimSpace(fmt.Sprintf("%s %s %s %.8s", f.Severity, f.Kind, f.Server, f.Tool)))
	}
	want := []string{
		"error provider a xxxxxxxx",
		"warning provider a xxxxxxxx",
		"error provider a xxxxxxxx",
		"warning config b",
		"warning protocol b",
		"error tool-lost b request",
		"error server-failed c",
		"warning config",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	d := surface.Derive(snap, surface.Options{Policy: policy(t, "lionagi-legacy"), Profiles: model.DefaultProfiles()})
	if d.Findings != nil {
		t.Errorf("Derive computed findings")
	}
	if again := d.FindingsWith(surface.Observed(d.Snapshot)); len(again) != len(a.Findings) {
		t.Errorf("FindingsWith lists %d findings, Assess %d", len(again), len(a.Findings))
	}
}

// A server no config lists joins the snapshot when an event declares it
// (a tap mcplens watch finds), after the configured ones; an undeclared
// stranger changes nothing, and a clone taken before keeps its servers.
func TestApplyDeclares(t *testing.T) {
	snap := surface.New([]config.ServerSpec{{Label: "alpha", Command: "a"}}, nil)
	before := snap.Clone()
	if snap.Apply(mcpsession.Event{Server: "stranger", State: mcpsession.Ready, Tools: []model.Tool{tool("x")}}) {
		t.Fatal("an undeclared server changed the snapshot")
	}
	spec := config.ServerSpec{Label: "beta", Transport: config.TransportStdio, Command: "node", Args: []string{"b.js"}}
	if !snap.Apply(mcpsession.Event{Server: "beta", State: mcpsession.Connecting, Declare: &spec}) {
		t.Fatal("a declared server did not change the snapshot")
	}
	snap.Apply(mcpsession.Event{Server: "beta", State: mcpsession.Ready, Tools: []model.Tool{tool("echo")}})
	i, ok := snap.Index("beta")
	if !ok || i != 1 || len(snap.Servers) != 2 || !snap.Servers[1].Listed || snap.Servers[1].Endpoint.Shown != "node b.js" {
		t.Fatalf("beta at %d (%v) of %d: %+v", i, ok, len(snap.Servers), snap.Servers)
	}
	if _, ok := before.Index("beta"); ok || len(before.Servers) != 1 {
		t.Errorf("the clone taken before saw beta: %d servers", len(before.Servers))
	}
	if got := snap.Catalogues(); len(got) != 1 || got[0].Server != "beta" {
		t.Errorf("catalogues = %+v, want beta's", got)
	}
}
