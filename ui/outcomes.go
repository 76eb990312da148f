package ui

import (
	"strings"

	"github.com/mcplens/mcplens/model"
)

// An outcomeDoc is how the interface draws one kind of outcome and what
// the help screen says it means. outcomeDocs is the one table of them: the
// rows' colours and the help's legend are both read from it.
type outcomeDoc struct {
	kind    model.OutcomeKind
	paint   func(*painters) painter
	meaning string
}

func outcomeDocs() []outcomeDoc {
	return []outcomeDoc{
		{model.Registered, func(p *painters) painter { return p.ok }, "in the registry under its wire name"},
		{model.Renamed, func(p *painters) painter { return p.renamed }, "under another name"},
		{model.Dropped, func(p *painters) painter { return p.bad }, "never reached the registry (reason shown)"},
		{model.Displaced, func(p *painters) painter { return p.warn }, "registered, then overwritten"},
		{model.Filtered, func(p *painters) painter { return p.muted }, "withheld before any policy, by the config or for an app only (reason shown)"},
	}
}

// The marks of the provider columns: a name rule's verdict, or no name.
const (
	markPass    = "✓"
	markWarn    = "!"
	markFail    = "✗"
	markUnnamed = "·"
)

// The marks before a row's wire name (serversView.changeMark).
const (
	markAdded   = "+"
	markChanged = "~"
	markLocked  = "≠"
)

// rowMarkDocs says what each mark before a row's wire name means.
func rowMarkDocs() [][2]string {
	return [][2]string{
		{markAdded, "new since the server's previous list"},
		{markChanged, "changed since it"},
		{markLocked, "differs from the lock"},
	}
}

// markDocs says what each mark of the provider columns means.
func markDocs() [][2]string {
	return [][2]string{
		{markPass, "passes the provider's name rule"},
		{markWarn, "warning"},
		{markFail, "rejected"},
		{markUnnamed, "no name to check"},
	}
}

// legend is the help screen's account of every outcome and mark, two
// outcomes a line.
func legend() string {
	var lines []string
	docs := outcomeDocs()
	for i := 0; i < len(docs); i += 2 {
		var pair []string
		for _, d := range docs[i:min(i+2, len(docs))] {
			pair = append(pair, d.kind.String()+": "+d.meaning)
		}
		lines = append(lines, "  "+strings.Join(pair, " · "))
	}
	for _, docs := range [][][2]string{markDocs(), rowMarkDocs()} {
		var marks []string
		for _, m := range docs {
			marks = append(marks, m[0]+" "+m[1])
		}
		lines = append(lines, "  "+strings.Join(marks, " · "))
	}
	return strings.Join(lines, "\n")
}

// outcomeText is the one-line form of an outcome.
func outcomeText(o model.Outcome) string {
	switch o.Kind {
	case model.Displaced:
		return "displaced by " + o.By
	case model.Filtered:
		return o.Reason // "filtered by config: ...", "app only: ..."
	case model.Dropped:
		return "dropped: " + o.Reason
	}
	return o.Kind.String()
}

// outcomeWidth is len(outcomeText(o)) without building the text.
func outcomeWidth(o *model.Outcome) int {
	switch o.Kind {
	case model.Displaced:
		return len("displaced by ") + len(o.By)
	case model.Filtered:
		return len(o.Reason)
	case model.Dropped:
		return len("dropped: ") + len(o.Reason)
	}
	return len(o.Kind.String())
}

// outcomeStyle is how rows of kind k are drawn.
func (c *common) outcomeStyle(k model.OutcomeKind) painter {
	p := c.styles.painters()
	if k >= 0 && int(k) < len(p.kinds) {
		return p.kinds[k]
	}
	return p.bad
}

// kindPainters returns the painter of each outcome kind, by kind.
func kindPainters(p *painters) []painter {
	var kinds []painter
	for _, d := range outcomeDocs() {
		for int(d.kind) >= len(kinds) {
			kinds = append(kinds, p.bad)
		}
		kinds[d.kind] = d.paint(p)
	}
	return kinds
}

// checkMark is a provider profile's verdict on a row's registered name.
func (c *common) checkMark(p model.Profile, o model.Outcome) string {
	marks := c.styles.painters()
	if o.Name == "" {
		return marks.unnamed
	}
	switch p.Check(o).Severity {
	case model.Pass:
		return marks.pass
	case model.Warn:
		return marks.warned
	}
	return marks.failed
}
