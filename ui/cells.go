package ui

import (
	"fmt"
	"strings"
	"time"
)

// columns is the width of each column of a tool table.
type columns struct {
	wire, name, outcome, profile int
}

// columns fits a tool table's columns into width.
func (e *env) columns(width int) columns {
	prof := 0
	for _, p := range e.profiles {
		prof = max(prof, textWidth(p.Name))
	}
	rest := width - 3 - len(e.profiles)*(prof+1) - 3
	c := columns{profile: prof}
	c.wire = clamp(rest*28/100, 10, 40)
	c.name = clamp(rest*36/100, 12, 56)
	c.outcome = max(8, rest-c.wire-c.name)
	return c
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
