package ui

import (
	tea "charm.land/bubbletea/v2"

	live "github.com/mcplens/mcplens/surface"
)

// FindingList returns the list the findings view shows of m's surface.
func FindingList(m tea.Model) []live.Finding { return findingsOf(m.(Model).surface)().list }
