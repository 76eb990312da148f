package surface

import (
	"fmt"

	"github.com/mcplens/mcplens/model"
)

// appOnly returns the app of the row of o when it is for its app alone
// (MCP Apps' visibility leaves out the model), nil otherwise.
func appOnly(sv *Server, o model.Outcome) *model.ToolApp {
	if o.Index < 0 || o.Index >= len(sv.Tools) {
		return nil
	}
	if a := sv.Tools[o.Index].App; !a.ForModel() && sv.Tools[o.Index].FilteredBy == "" {
		return a
	}
	return nil
}

// appOnlyEvidence says what the client made of an app-only row: kept from
// the model by a client that hosts apps, or handed to it by one that does
// not.
func appOnlyEvidence(label string, o model.Outcome, a *model.ToolApp) string {
	if o.Kind == model.Filtered {
		return fmt.Sprintf("tool %s on %s is for its app only (visibility %s): the client hosts apps, and its model does not see the tool",
			model.QuoteJSON(o.Wire), label, a.VisibilityText())
	}
	return fmt.Sprintf("tool %s on %s is for its app only (visibility %s), but the client hosts no apps: its model sees the tool as %s",
		model.QuoteJSON(o.Wire), label, a.VisibilityText(), model.QuoteJSON(o.Name))
}
