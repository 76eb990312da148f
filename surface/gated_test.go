package surface_test

import (
	"slices"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/surface"
)

// Gated compares a server only among the clients that listed it, names a
// tool once per server, and skips rows without a name.
func TestGated(t *testing.T) {
	snap := func(events ...mcpsession.Event) *surface.Snapshot {
		s := surface.New(specs("a", "b"), nil)
		for _, ev := range events {
			s.Apply(ev)
		}
		return s
	}
	sightings := []surface.Sighting{
		{Clients: []string{"x"}, Snap: snap(ready("a", tool("common"), tool("xonly"), tool("")), ready("b", tool("bx")))},
		{Clients: []string{"y", "y2"}, Snap: snap(ready("a", tool("common"), tool("yonly")), mcpsession.Event{Server: "b", State: mcpsession.Failed, Err: "no"})},
		{Clients: []string{"z"}, Snap: snap(ready("a", tool("common"), tool("xonly"), tool("yonly")), ready("b", tool("bx")))},
	}
	got := surface.Gated(sightings)
	want := []surface.GatedTool{
		{Server: "a", Tool: "xonly", To: []string{"x", "z"}, NotTo: []string{"y", "y2"}},
		{Server: "a", Tool: "yonly", To: []string{"y", "y2", "z"}, NotTo: []string{"x"}},
	}
	if !slices.EqualFunc(got, want, func(a, b surface.GatedTool) bool {
		return a.Server == b.Server && a.Tool == b.Tool && slices.Equal(a.To, b.To) && slices.Equal(a.NotTo, b.NotTo)
	}) {
		t.Errorf("Gated = %+v, want %+v", got, want)
	}
	if surface.Gated(sightings[:1]) != nil {
		t.Errorf("Gated of one sighting is not nil")
	}
	a := surface.Assess(sightings[0].Snap, surface.Options{Policy: policy(t, "lionagi-legacy"), Gated: got})
	var evidence []string
	for _, f := range a.Findings {
		if f.Kind == "gated-tool" && f.Severity == surface.Warning {
			evidence = append(evidence, f.Evidence)
		}
	}
	// A tool the assessed snapshot lacks is on its server, before its rows.
	if want := []string{
		`tool "yonly" on a is advertised to y, y2, z but not to x`,
		`tool "xonly" on a is advertised to x, z but not to y, y2`,
	}; !slices.Equal(evidence, want) {
		t.Errorf("gated-tool warnings = %q, want %q", evidence, want)
	}
}

// Wrap folds blanks, sanitizes, wraps and bounds a server's text.
func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		cut   bool
		width int
		lines int
		want  []string
	}{
		{"empty", "  \n ", false, 10, 3, nil},
		{"fits", "one two", false, 10, 3, []string{"one two"}},
		{"wraps", "one two three four", false, 9, 3, []string{"one two", "three", "four"}},
		{"bounded", "one two three four", false, 9, 2, []string{"one two", "three …"}},
		{"cut before", "one", true, 9, 2, []string{"one …"}},
		{"sanitized", "a\u202eb c", false, 20, 1, []string{`a\u202eb c`}},
		{"long word", "abcdefghijkl x", false, 4, 3, []string{"abcdefghijkl", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := surface.Wrap(tt.text, tt.cut, tt.width, tt.lines); !slices.Equal(got, tt.want) {
				t.Errorf("Wrap(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
	f := mcpsession.ServerFacts{Title: "T", Capabilities: []string{"tools"}, Instructions: "hi"}
	if got := surface.Facts(f, 20, 2); len(got) != 3 || got[2] != [2]string{"instructions", "hi"} {
		t.Errorf("Facts = %q", got)
	}
}
