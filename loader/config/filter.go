package config

import (
	"cmp"
	"slices"

	"github.com/mcplens/mcplens/model"
)

// MarkFiltered marks each row the server's config withholds from the
// client (Tool.FilteredBy), so every view shows it as filtered by config
// rather than leaving it out. A row without a usable name matches no
// filter but a disabled server.
func (s ServerSpec) MarkFiltered(tools []model.Tool) {
	include, exclude := "includeTools", "excludeTools"
	if f := formatNamed(s.Format); f != nil {
		include = cmp.Or(f.layout().include, include)
		exclude = cmp.Or(f.layout().exclude, exclude)
	}
	for i := range tools {
		t := &tools[i]
		named := t.NameOK && t.Name != ""
		switch {
		case s.Disabled:
			t.FilteredBy = "the server is disabled"
		case !named:
		case slices.Contains(s.ExcludeTools, t.Name):
			t.FilteredBy = exclude + " lists it"
		case len(s.IncludeTools) > 0 && !slices.Contains(s.IncludeTools, t.Name):
			t.FilteredBy = include + " does not list it"
		}
	}
}
