package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"

	"github.com/mcplens/mcplens/ui/kit"
)

// columns is the width of each column of a tool table.
type columns struct {
	wire, name, outcome, profile int
	// packed puts every provider's mark in one column (✓✓✗), headed by
	// the providers' initials: a narrow terminal gives its room to the
	// registered name and the outcome.
	packed bool
}

// packBelow is the width under which the provider checks share a column.
const packBelow = 110

// columns fits a tool table's columns into width. Each of wire name,
// registered name and outcome gets what its widest cell needs
// (surface.widest) when all fit; when they do not, each first gets up to
// its share (a quarter, two fifths, the rest), and what a column does not
// need goes to the registered name, then the outcome, then the wire name.
func (e *env) columns(width int) columns {
	prof := 0
	for _, p := range e.profiles {
		prof = max(prof, textWidth(p.Name))
	}
	c := columns{profile: prof}
	if width < packBelow && len(e.profiles) > 1 {
		c = columns{profile: max(3, len(e.profiles)), packed: true}
	}
	rest := width - 3 - c.profileWidth(len(e.profiles)) - 3
	need := e.live.widest
	want := [3]int{
		clamp(need.wire, len("WIRE NAME"), 64),
		clamp(need.name, len("REGISTERED AS"), 72),
		clamp(need.outcome, len("OUTCOME"), 80),
	}
	var got [3]int
	if want[0]+want[1]+want[2] <= rest {
		got = [3]int{want[0], want[1], rest - want[0] - want[1]}
	} else {
		share := [3]int{rest / 4, rest * 2 / 5, rest - rest/4 - rest*2/5}
		left := rest
		for i := range got {
			got[i] = min(want[i], share[i])
			left -= got[i]
		}
		for _, i := range []int{1, 2, 0} {
			more := min(left, want[i]-got[i])
			got[i] += more
			left -= more
		}
		got[2] += left
	}
	c.wire, c.name, c.outcome = max(6, got[0]), max(8, got[1]), max(6, got[2])
	return c
}

// cellMid fits s into exactly w columns, cutting from its middle: the
// start and the end of a name are what tell two long names apart.
func cellMid(s string, w int) string {
	n := textWidth(s)
	if n <= w {
		return s + strings.Repeat(" ", w-n)
	}
	if w < 8 {
		return cell(s, w)
	}
	head := (w - 1) / 2
	return truncate(s, head, "") + "…" + ansi.TruncateLeft(s, n-(w-1-head), "")
}

// profileWidth is the room the provider checks of n providers take, the
// space before each column included.
func (c columns) profileWidth(n int) int {
	if c.packed {
		return c.profile + 1
	}
	return n * (c.profile + 1)
}

// checksHead is the head of the provider checks: each provider's name, or
// their initials when packed.
func (e *env) checksHead(c columns) string {
	if !c.packed {
		out := ""
		for _, p := range e.profiles {
			out += " " + cell(p.Name, c.profile)
		}
		return out
	}
	initials := ""
	for _, p := range e.profiles {
		initials += p.Name[:1]
	}
	return " " + cell(initials, c.profile)
}

// checks are the provider marks of o, in their columns or packed.
func (e *env) checks(c columns, o model.Outcome) string {
	out := ""
	for _, p := range e.profiles {
		if c.packed {
			out += e.c.checkMark(p, o)
		} else {
			out += " " + cell(e.c.checkMark(p, o), c.profile)
		}
	}
	if c.packed {
		return " " + out
	}
	return out
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// cell fits s into exactly w columns (kit.Cell).
func cell(s string, w int) string { return kit.Cell(s, w) }

// countdown is " 17s" while a connect has time left before its deadline.
func countdown(deadline time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	return fmt.Sprintf(" %ds", int(max(0, time.Until(deadline).Seconds()+0.5)))
}
