package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcplens/mcplens/model"
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

// columns fits a tool table's columns into width.
func (e *env) columns(width int) columns {
	prof := 0
	for _, p := range e.profiles {
		prof = max(prof, textWidth(p.Name))
	}
	c := columns{profile: prof}
	wire, name := 28, 36
	if width < packBelow && len(e.profiles) > 1 {
		c = columns{profile: max(3, len(e.profiles)), packed: true}
		wire, name = 24, 40
	}
	rest := width - 3 - c.profileWidth(len(e.profiles)) - 3
	c.wire = clamp(rest*wire/100, 10, 40)
	c.name = clamp(rest*name/100, 12, 56)
	c.outcome = max(8, rest-c.wire-c.name)
	return c
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

// cell fits s into exactly w columns.
func cell(s string, w int) string {
	s = truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-textWidth(s)))
}

// countdown is " 17s" while a connect has time left before its deadline.
func countdown(deadline time.Time) string {
	if deadline.IsZero() {
		return ""
	}
	return fmt.Sprintf(" %ds", int(max(0, time.Until(deadline).Seconds()+0.5)))
}
