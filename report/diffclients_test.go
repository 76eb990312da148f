package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surfacediff"
)

// A diff of two sides taken as different clients says so in its heading:
// servers advertise tools by client, so a change may come from that alone.
func TestDiffSaysClientsDiffer(t *testing.T) {
	none := []surfacediff.Policy{}
	a := &surfacediff.Document{Config: "snap.json", Client: "claude-code@2.1", Policies: none}
	b := &surfacediff.Document{Config: "claude_desktop_config.json", Client: "claude-desktop@2026", Policies: none}
	mcplens := &surfacediff.Document{Config: "x", Policies: none}
	lock := &surfacediff.Document{Config: "mcplens.lock"} // definitions only: no client to compare
	for _, tc := range []struct {
		a, b *surfacediff.Document
		want bool
	}{{a, b, true}, {b, b, false}, {mcplens, b, true}, {lock, b, false}} {
		d := surfacediff.Compare(tc.a, tc.b, "lionagi")
		var out bytes.Buffer
		if err := report.WriteDiff(&out, []*surfacediff.Diff{d}, "text", nil); err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(out.String(), "the sides were taken as different clients")
		if got != tc.want || d.ClientsDiffer() != tc.want {
			t.Errorf("A as %q, B as %q: note %v, ClientsDiffer %v; want %v\n%s", tc.a.Client, tc.b.Client, got, d.ClientsDiffer(), tc.want, out.String())
		}
	}
}
