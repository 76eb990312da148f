package ui

import (
	"fmt"
	"time"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/model"
)

// observedCalls are the calls a recording shows a real client made.
type observedCalls []*capture.Call

// SetObserved gives the calls a real client made, as a tap recorded them:
// the detail pane of the row each reached says how many, and whether they
// match or contradict the route the registry shown predicts
// (model.JudgeCall, judged again when the policy changes).
func (m *Model) SetObserved(calls []*capture.Call) { m.observed = calls }

// observedLines is the line the detail pane gives the calls recorded to
// o's server carrying its wire name: their number, the slowest answer, and
// the verdict, which is the same for each (it depends on server and wire
// alone).
func (m *Model) observedLines(o model.Outcome) []string {
	s := m.c.styles
	n, answered := 0, 0
	var slowest time.Duration
	for _, c := range m.observed {
		if c.Server == o.Server && c.Wire == o.Wire {
			n++
			if c.Answered {
				answered++
				slowest = max(slowest, c.Latency)
			}
		}
	}
	if n == 0 {
		return nil
	}
	took := fmt.Sprintf("observed: %d call(s), %d answered", n, answered)
	if answered > 0 {
		took += ", slowest " + slowest.Round(time.Microsecond).String()
	}
	v := model.JudgeCall(m.surface.reg, o.Server, o.Wire)
	mark := s.OKText.Render("✓ matches")
	if !v.Matches {
		mark = s.ErrorText.Render("✗ contradicts")
	}
	return []string{s.Muted.Render(took+" · ") + mark + " " + model.Sanitize(v.Why)}
}
