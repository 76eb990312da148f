package ui

import (
	"context"
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// common is what every part of the interface needs to draw itself.
type common struct {
	width, height int
	styles        Styles
	keys          KeyMap
	// redact masks the config's secrets in what is shown (redact.go).
	redact *model.Redactor
}

// A pane is what the bottom of the screen shows.
type pane int

const (
	paneDetail pane = iota
	paneResult
	paneWire
)

// Model is the root Bubble Tea model of mcplens.
type Model struct {
	c       common
	title   string
	backend Backend

	surface  *surface
	policies []model.Policy
	policy   int
	profiles []model.Profile

	view view
	// scroll is the cursor of each view; the servers view's cursor indexes
	// surface.rows, and offset is its first visible line.
	scroll [viewCount]scroller
	offset int
	// compareAll shows every row in the compare view, not only those the
	// policies disagree on.
	compareAll bool
	// compareCol is the first policy column the compare view shows.
	compareCol int
	// profileSet indexes the provider sets v cycles through.
	profileSet int

	pane    pane
	invoke  *invoke
	result  *callView
	calling *pendingCall // the call on its way, if any (calling.go)
	wire    wireView
	help    help.Model
	full    bool
	spinner spinner.Model
	// pins is the --lock comparison and the report key's status (report.go).
	pins pinning
}

// New returns the interface for the servers of cfg, fed by backend. title
// names the config in the header.
func New(title string, specs []loader.ServerSpec, backend Backend) Model {
	m := Model{
		c:        common{width: 100, height: 30, styles: DefaultStyles(true), keys: DefaultKeyMap()},
		title:    title,
		backend:  backend,
		policies: model.Policies(),
		profiles: model.DefaultProfiles(),
		help:     help.New(),
		spinner:  spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	m.surface = newSurface(specs, m.policies)
	m.surface.profiles = m.profiles
	m.c.redact = m.surface.snap.Redact
	m.compareAll = true
	m.wire = newWireView(specs)
	m.surface.rebuild(m.policy)
	return m
}

// SetPolicy makes the named policy active, reporting whether it exists.
func (m *Model) SetPolicy(name string) bool {
	for i, p := range m.policies {
		if p.Name == name {
			m.policy = i
			m.surface.rebuild(i)
			m.clampCursor()
			return true
		}
	}
	return false
}

func (m Model) activePolicy() model.Policy { return m.policies[m.policy] }

// Init starts listening to the backend and requests the background colour.
func (m Model) Init() tea.Cmd {
	return tea.Batch(waitEvent(m.backend.Events()), m.spinner.Tick, tea.RequestBackgroundColor)
}

// Update routes messages: global keys here, other keys to what has focus,
// async results to their owner.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		m.scrollToCursor()
		return m, nil
	case tea.BackgroundColorMsg:
		m.c.styles = DefaultStyles(msg.IsDark())
		return m, nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case eventMsg:
		m.handleEvents(loader.Event(msg))
		return m, tea.Batch(waitEvent(m.backend.Events()), m.derive(), m.diffRelists())
	case eventsMsg:
		m.handleEvents(msg...)
		return m, tea.Batch(waitEvent(m.backend.Events()), m.derive(), m.diffRelists())
	case derivedMsg:
		m.surface.adopt(msg)
		return m, m.derive()
	case relistedMsg:
		if m.surface.adoptRelisted(msg) {
			m.surface.layout()
			m.clampCursor()
		}
		return m, m.diffRelists()
	case eventsClosedMsg:
		return m, nil
	case reportWrittenMsg:
		m.reportWritten(msg)
		return m, nil
	case callDoneMsg:
		m.calling = nil
		m.result = newCallView(msg)
		m.pane = paneResult
		return m, nil
	case callProgressMsg:
		return m, m.callProgress(msg)
	case tea.KeyPressMsg:
		next, cmd := m.handleKey(msg)
		if nm, ok := next.(Model); ok {
			return nm, tea.Batch(cmd, nm.derive())
		}
		return next, cmd
	}
	if m.invoke != nil {
		return m, m.invoke.update(msg)
	}
	return m, nil
}

// handleEvents records loader events, rebuilding the surface once for all
// of them.
func (m *Model) handleEvents(evs ...loader.Event) {
	changed := false
	var servers []string
	for _, ev := range evs {
		if !slices.Contains(servers, ev.Server) {
			servers = append(servers, ev.Server)
		}
		if !ev.Wire && m.surface.apply(ev) {
			changed = true
		}
	}
	if m.pane == paneWire {
		m.wire.refresh(m.backend, servers...)
	}
	if changed {
		m.surface.rebuild(m.policy)
		m.clampCursor()
	}
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.c.keys
	if m.invoke != nil {
		return m.updateInvoke(msg)
	}
	if m.pins.confirming {
		return m, m.confirmReport(msg)
	}
	if m.full {
		if key.Matches(msg, k.Help, k.Cancel) {
			m.full = false
		} else if key.Matches(msg, k.Quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.full = true
	case key.Matches(msg, k.Report):
		return m, writeReport(m.Report(), ReportFile, false)
	case key.Matches(msg, k.Policy):
		m.cyclePolicy(1)
	case key.Matches(msg, k.PolicyBack):
		m.cyclePolicy(-1)
	case key.Matches(msg, k.NextView):
		m.view = (m.view + 1) % viewCount
	case key.Matches(msg, k.PrevView):
		m.view = (m.view + viewCount - 1) % viewCount
	case key.Matches(msg, k.Views...):
		for i, b := range k.Views {
			if key.Matches(msg, b) {
				m.view = view(i)
			}
		}
	case key.Matches(msg, k.Providers):
		m.cycleProfiles()
	case m.view == viewCompare && key.Matches(msg, k.Left):
		m.compareCol = max(0, m.compareCol-1)
	case m.view == viewCompare && key.Matches(msg, k.Right):
		m.compareCol = min(len(m.policies)-1, m.compareCol+1)
	case m.view == viewCompare && key.Matches(msg, k.Disagree):
		m.compareAll = !m.compareAll
		m.scroll[viewCompare] = scroller{}
	case key.Matches(msg, k.Wire):
		if m.pane == paneWire {
			m.pane = paneDetail
		} else {
			m.pane = paneWire
			m.wire.refreshAll(m.backend)
		}
	case m.pane == paneWire && m.wire.handleKey(msg, k):
	case m.calling != nil && key.Matches(msg, k.Cancel):
		m.cancelCall()
		m.pane = paneResult
	case key.Matches(msg, k.Cancel):
		m.pane = paneDetail
	case key.Matches(msg, k.Invoke):
		m.openInvoke()
		if m.invoke != nil {
			return m, m.invoke.focus()
		}
	default:
		m.moveCursor(msg)
	}
	return m, nil
}

func (m *Model) cyclePolicy(step int) {
	n := len(m.policies)
	m.policy = (m.policy + step + n) % n
	m.surface.rebuild(m.policy)
	m.clampCursor()
}

func (m *Model) moveCursor(msg tea.KeyPressMsg) {
	if !m.scroll[m.view].move(msg, m.c.keys, m.listLen(), m.tableHeight()-1) {
		return
	}
	if m.pane == paneResult {
		m.pane = paneDetail
	}
	if m.view == viewServers {
		m.scrollToCursor()
	}
}

func (m *Model) clampCursor() {
	sc := &m.scroll[viewServers]
	sc.cursor = max(0, min(sc.cursor, len(m.surface.rows)-1))
	m.scrollToCursor()
}

// scrollToCursor keeps the selected row, and its server's header when it
// fits, inside the visible part of the servers view.
func (m *Model) scrollToCursor() {
	h := m.tableHeight()
	if len(m.surface.rows) == 0 || h <= 0 {
		m.offset = 0
		return
	}
	at := m.surface.rows[m.scroll[viewServers].cursor]
	if at < m.offset {
		m.offset = at
		for m.offset > 0 && at-m.offset < 2 && m.surface.lines[m.offset-1].kind != lineBlank {
			m.offset--
		}
	}
	if at >= m.offset+h {
		m.offset = at - h + 1
	}
	m.offset = max(0, min(m.offset, len(m.surface.lines)-h))
}

// selected returns the line under the cursor, if any.
func (m Model) selected() (line, bool) {
	if len(m.surface.rows) == 0 {
		return line{}, false
	}
	return m.surface.lines[m.surface.rows[m.scroll[viewServers].cursor]], true
}

// View draws the whole screen.
func (m Model) View() tea.View {
	var body string
	if m.full {
		body = m.fullHelpView()
	} else {
		body = joinLeft(
			m.headerView(),
			m.mainView(),
			m.paneView(),
		)
	}
	body = joinLeft(body, m.footerView())
	if m.invoke != nil {
		body = m.invoke.overlay(m.c, body)
	}
	v := tea.NewView(body)
	v.AltScreen = true
	return v
}

// paneHeight is the height of the bottom pane, border included.
func (m Model) paneHeight() int {
	switch m.pane {
	case paneWire:
		return max(6, m.c.height/2)
	case paneResult:
		return max(6, min(14, m.c.height/2))
	}
	return max(4, min(9, m.c.height/3))
}

// tableHeight is how many lines the servers view has.
func (m Model) tableHeight() int {
	return max(1, m.c.height-3-m.paneHeight())
}

func (m Model) paneView() string {
	switch m.pane {
	case paneWire:
		return m.wire.view(m.c, m.paneHeight())
	case paneResult:
		if m.calling != nil {
			return m.callingView(m.paneHeight())
		}
		if m.result != nil {
			return m.result.view(m.c, m.paneHeight(), m.paneBox)
		}
	}
	return m.detailView(m.paneHeight())
}

// shortHelp is the keys that work in the current view, for the footer.
func (m Model) shortHelp() []key.Binding {
	k := m.c.keys
	switch {
	case m.invoke != nil:
		return []key.Binding{k.Send, k.Cancel}
	case m.full:
		return []key.Binding{k.Help, k.Quit}
	case m.pane == paneWire:
		return []key.Binding{k.Up, k.Down, k.WireServer, k.Wire, k.Policy, k.Help, k.Quit}
	case m.view == viewCompare:
		return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.NextView, k.Policy, k.Disagree, k.Providers, k.Invoke, k.Help, k.Quit}
	}
	return []key.Binding{k.Up, k.Down, k.NextView, k.Policy, k.Providers, k.Invoke, k.Wire, k.Help, k.Quit}
}

func (m Model) fullHelp() [][]key.Binding {
	k := m.c.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Left, k.Right},
		append([]key.Binding{k.NextView, k.PrevView}, k.Views...),
		{k.Policy, k.PolicyBack, k.Providers, k.Disagree, k.Invoke, k.Send, k.Cancel},
		{k.Wire, k.WireServer, k.Report, k.Help, k.Quit},
	}
}

func (m Model) footerView() string {
	help := m.c.styles.Footer.Render(m.help.ShortHelpView(m.shortHelp()))
	if m.pins.status != "" {
		return m.pins.status + "  " + help
	}
	return help
}

// callContext bounds one interactive call.
func callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

// mainView draws the current view above the bottom pane.
func (m Model) mainView() string {
	h := m.tableHeight()
	switch m.view {
	case viewRegistry:
		return m.registryView(h)
	case viewCompare:
		return m.compareView(h)
	case viewCollisions:
		return m.collisionsView(h)
	case viewFindings:
		return m.findingsView(h)
	}
	return m.tableView()
}

// listLen is the number of rows of the current list view.
func (m Model) listLen() int {
	switch m.view {
	case viewRegistry:
		return len(m.surface.reg.Routes)
	case viewCompare:
		return len(m.surface.compareRows(m.compareAll))
	case viewCollisions:
		return len(m.surface.collisionLines())
	case viewFindings:
		return len(m.surface.findingList())
	}
	return len(m.surface.rows)
}

// Policy names the active naming policy.
func (m Model) Policy() string { return m.activePolicy().Name }
