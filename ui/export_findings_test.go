package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// FindingList returns the findings view's list as it stands.
func FindingList(m tea.Model) []model.Finding { return m.(Model).surface.findingList() }
