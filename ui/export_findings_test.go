package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// FindingList returns the list the findings view shows of m's surface.
func FindingList(m tea.Model) []model.Finding { return findingsOf(m.(Model).surface)() }
