package ui

import "charm.land/lipgloss/v2"

// Styles holds every style the views use, by meaning. Views never build a
// style inline; they ask for one of these.
type Styles struct {
	Header      lipgloss.Style
	HeaderMuted lipgloss.Style
	PolicyName  lipgloss.Style
	Section     lipgloss.Style
	ColumnHead  lipgloss.Style
	Selected    lipgloss.Style
	Muted       lipgloss.Style
	Text        lipgloss.Style
	OKText      lipgloss.Style
	WarnText    lipgloss.Style
	ErrorText   lipgloss.Style
	RenamedText lipgloss.Style
	Pane        lipgloss.Style
	PaneTitle   lipgloss.Style
	Out         lipgloss.Style
	In          lipgloss.Style
	Junk        lipgloss.Style
	Footer      lipgloss.Style
	Overlay     lipgloss.Style

	// Match and CurrentMatch mark what a search in the reader found.
	Match, CurrentMatch lipgloss.Style

	// paint is the styles drawn on every row, reduced to their escapes
	// (render.go).
	paint *painters
}

// DefaultStyles returns the styles for a dark or light terminal.
func DefaultStyles(dark bool) Styles {
	pick := lipgloss.LightDark(dark)
	var (
		fg     = pick(lipgloss.Color("#1f2328"), lipgloss.Color("#d0d7de"))
		muted  = pick(lipgloss.Color("#6e7781"), lipgloss.Color("#8b949e"))
		accent = pick(lipgloss.Color("#0550ae"), lipgloss.Color("#79c0ff"))
		ok     = pick(lipgloss.Color("#116329"), lipgloss.Color("#56d364"))
		warn   = pick(lipgloss.Color("#9a6700"), lipgloss.Color("#e3b341"))
		bad    = pick(lipgloss.Color("#cf222e"), lipgloss.Color("#ff7b72"))
		renam  = pick(lipgloss.Color("#8250df"), lipgloss.Color("#d2a8ff"))
		selBg  = pick(lipgloss.Color("#ddf4ff"), lipgloss.Color("#1f3a5f"))
		border = pick(lipgloss.Color("#d0d7de"), lipgloss.Color("#30363d"))
	)
	text := lipgloss.NewStyle().Foreground(fg)
	s := Styles{
		Header:      lipgloss.NewStyle().Bold(true).Foreground(accent),
		HeaderMuted: lipgloss.NewStyle().Foreground(muted),
		PolicyName:  lipgloss.NewStyle().Bold(true).Foreground(renam),
		Section:     lipgloss.NewStyle().Bold(true).Foreground(fg),
		ColumnHead:  lipgloss.NewStyle().Foreground(muted).Underline(true),
		Selected:    lipgloss.NewStyle().Background(selBg).Bold(true),
		Muted:       lipgloss.NewStyle().Foreground(muted),
		Text:        text,
		OKText:      lipgloss.NewStyle().Foreground(ok),
		WarnText:    lipgloss.NewStyle().Foreground(warn),
		ErrorText:   lipgloss.NewStyle().Foreground(bad),
		RenamedText: lipgloss.NewStyle().Foreground(renam),
		Pane:        lipgloss.NewStyle().BorderStyle(lipgloss.NormalBorder()).BorderTop(true).BorderForeground(border),
		PaneTitle:   lipgloss.NewStyle().Bold(true).Foreground(accent),
		Out:         lipgloss.NewStyle().Foreground(accent),
		In:          lipgloss.NewStyle().Foreground(ok),
		Junk:        lipgloss.NewStyle().Foreground(warn).Italic(true),
		Footer:      lipgloss.NewStyle().Foreground(muted),
		Overlay:     lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(0, 1),

		Match:        lipgloss.NewStyle().Background(selBg),
		CurrentMatch: lipgloss.NewStyle().Background(warn).Foreground(lipgloss.Color("#000000")).Bold(true),
	}
	s.paint = newPainters(s)
	return s
}
