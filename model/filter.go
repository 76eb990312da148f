package model

// A client's config can withhold tools before its naming rule runs: Gemini
// CLI's includeTools and excludeTools, Codex's enabled_tools,
// disabled_tools and enabled = false, Windsurf's disabledTools. The loader
// marks such rows (Tool.FilteredBy); every policy then gives them the
// outcome Filtered and otherwise ignores them: they claim no name, collide
// with nothing and are not missing.

// named reports whether the row carries a name, filtered or not.
func (t *Tool) named() bool { return t.NameOK && t.Name != "" }

// filtered gives a row the config withholds its Filtered outcome, reporting
// whether it did.
func (b *builder) filtered(ref rowRef) bool {
	t := &b.cats[ref.cat].Tools[ref.row]
	if t.FilteredBy == "" && t.withheld == "" {
		return false
	}
	o := b.outcome(ref)
	o.Kind = Filtered
	o.Reason = "filtered by config: " + t.FilteredBy
	if t.FilteredBy == "" {
		o.Reason = t.withheld
	}
	o.By = ""
	return true
}
