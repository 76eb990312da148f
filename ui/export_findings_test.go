package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/surface"
)

// FindingList returns the list the findings view shows of m's surface.
func FindingList(m tea.Model) []surface.Finding { return findingsOf(m.(Model).live)().list }
