package surfacediff_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surfacediff"
)

func TestParseFailOn(t *testing.T) {
	tests := []struct {
		name, list string
		want       []surfacediff.Class
		err        bool
	}{
		{"one", "removed", []surfacediff.Class{surfacediff.Removed}, false},
		{"two, spaced", "removed, added", []surfacediff.Class{surfacediff.Removed, surfacediff.Added}, false},
		{"default", "default", surfacediff.DefaultFailOn(), false},
		{"default and more", "default,added", append(surfacediff.DefaultFailOn(), surfacediff.Added), false},
		{"twice", "added,added", []surfacediff.Class{surfacediff.Added}, false},
		{"all", "all", surfacediff.Classes(), false},
		{"none", "none", nil, false},
		{"unknown", "removed,bogus", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := surfacediff.ParseFailOn(tt.list)
			if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
				t.Errorf("ParseFailOn(%q) = %v, %v; want %v, error %v", tt.list, got, err, tt.want, tt.err)
			}
		})
	}
}

// snapshotOf is the settled snapshot of servers, each listing its tools
// by name (a tool "name=DESCRIPTION" carries a description).
func snapshotOf(servers map[string][]string, order ...string) *surface.Snapshot {
	specs := make([]config.ServerSpec, len(order))
	for i, label := range order {
		specs[i] = config.ServerSpec{Label: label, Command: "srv-" + label}
	}
	snap := surface.New(specs, nil)
	for _, label := range order {
		var tools []model.Tool
		for _, name := range servers[label] {
			desc := "does " + name
			for i := range name {
				if name[i] == '=' {
					name, desc = name[:i], name[i+1:]
					break
				}
			}
			raw, _ := json.Marshal(map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{"type": "object"}})
			tools = append(tools, model.Tool{Name: name, NameOK: true, Description: desc, Raw: raw})
		}
		snap.Apply(mcpsession.Event{Server: label, State: mcpsession.Ready, Tools: tools})
	}
	return snap
}

// TestSnapshotRoundTrip: a captured document reads back as itself, and
// compares equal to itself under every policy.
func TestSnapshotRoundTrip(t *testing.T) {
	snap := snapshotOf(map[string][]string{"alpha": {"request", "a.b"}, "beta": {"request"}}, "alpha", "beta")
	doc := surfacediff.Capture("c.json", "", snap, model.DefaultProfiles())
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := surfacediff.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Marshal()
	if string(again) != string(data) {
		t.Errorf("snapshot does not read back as itself:\n%s\n%s", data, again)
	}
	if len(back.Policies) != len(model.Policies()) {
		t.Errorf("%d policies, want %d", len(back.Policies), len(model.Policies()))
	}
	for _, p := range model.Policies() {
		if d := surfacediff.Compare(doc, back, p.Name); len(d.Changes) != 0 {
			t.Errorf("under %s a snapshot differs from itself: %+v", p.Name, d.Changes)
		}
	}
	if _, err := surfacediff.Parse([]byte(`{"version":3,"servers":{}}`)); err == nil {
		t.Error("a lock parses as a snapshot")
	}
}

// Compared under lionagi-legacy-update, a server that starts advertising
// a name another server has takes it over.
func ExampleCompare() {
	before := snapshotOf(map[string][]string{"alpha": {"request"}, "beta": {"search"}}, "alpha", "beta")
	after := snapshotOf(map[string][]string{"alpha": {"request"}, "beta": {"search=finds things", "request"}}, "alpha", "beta")
	a := surfacediff.Capture("before", "", before, model.DefaultProfiles())
	b := surfacediff.Capture("after", "", after, model.DefaultProfiles())
	d := surfacediff.Compare(a, b, "lionagi-legacy-update")
	for _, c := range d.Changes {
		fmt.Println(c.Class, c.Detail)
	}
	fmt.Println("fails:", d.Fails(surfacediff.DefaultFailOn()))
	// Output:
	// server-changed server "alpha" is incomplete, was ok
	// displaced "request" on alpha was registered as "request", now displaced by beta
	// finding-new error tool-lost: "request" on alpha displaced: overwritten by beta; calls to request now go to beta
	// added "request" added on beta (registered as "request")
	// definition-changed "search" on beta changed: description
	// fails: true
}

// A lock compares by definitions alone.
func ExampleFromLock() {
	snap := snapshotOf(map[string][]string{"alpha": {"request", "search"}}, "alpha")
	lock := model.NewLock()
	sv := snap.Servers[0]
	lock.Servers["alpha"] = model.Pin(sv.Endpoint, sv.Tools[:1])
	now := surfacediff.Capture("mcp.json", "", snap, nil)
	d := surfacediff.Compare(surfacediff.FromLock("mcplens.lock", lock), now, "lionagi")
	fmt.Printf("policy %q\n", d.Policy)
	for _, c := range d.Changes {
		fmt.Println(c.Class, c.Tool)
	}
	// Output:
	// policy ""
	// added search
}

// BenchmarkCaptureCompare captures two snapshots of 2 servers × 2000
// tools under every policy and compares them.
func BenchmarkCaptureCompare(b *testing.B) {
	tools := func(prefix string, n int, extra string) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%s_%d", prefix, i))
		}
		return append(out, extra)
	}
	before := snapshotOf(map[string][]string{"alpha": tools("read", 2000, "old"), "beta": tools("write", 2000, "x")}, "alpha", "beta")
	after := snapshotOf(map[string][]string{"alpha": tools("read", 2000, "new"), "beta": tools("write", 2000, "x")}, "alpha", "beta")
	b.ReportAllocs()
	for b.Loop() {
		a := surfacediff.Capture("a", "", before, model.DefaultProfiles())
		c := surfacediff.Capture("b", "", after, model.DefaultProfiles())
		if d := surfacediff.Compare(a, c, "lionagi"); len(d.Changes) == 0 {
			b.Fatal("no changes")
		}
	}
}

// TestReasonAloneChanged: a tool registered on both sides whose reason
// alone changed (it became app-only, under a client that hosts no apps)
// is an outcome change whose two sides read differently.
func TestReasonAloneChanged(t *testing.T) {
	side := func(meta string) *surfacediff.Document {
		raw := json.RawMessage(`{"name":"board"}`)
		tool := model.Tool{Name: "board", NameOK: true, Raw: raw}
		if meta != "" {
			tool.App = model.AppOfMeta(json.RawMessage(meta))
		}
		snap := surface.New([]config.ServerSpec{{Label: "s", Command: "srv"}}, nil)
		snap.Apply(mcpsession.Event{Server: "s", State: mcpsession.Ready, Tools: []model.Tool{tool}})
		return surfacediff.Capture("side", "", snap, model.DefaultProfiles())
	}
	d := surfacediff.Compare(side(""), side(`{"ui":{"resourceUri":"ui://s/board","visibility":["app"]}}`), "claude-code")
	var found bool
	for _, c := range d.Changes {
		if c.Class != surfacediff.OutcomeChanged {
			continue
		}
		found = true
		if c.Old == c.New {
			t.Errorf("outcome change reads the same on both sides: %q", c.Old)
		}
	}
	if !found {
		t.Errorf("changes %+v, want an outcome change", d.Changes)
	}
}
