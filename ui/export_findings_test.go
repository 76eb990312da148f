package ui

import (
	tea "charm.land/bubbletea/v2"

	live "github.com/mcplens/mcplens/surface"
)

// FindingList returns the findings view's list as it stands.
func FindingList(m tea.Model) []live.Finding { return m.(Model).surface.findingList() }
