package ui

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// A pane is what the bottom of the screen shows.
type pane int

const (
	paneDetail pane = iota
	paneResult
	paneWire
	paneLog
	paneCalls
	paneStderr
	paneTasks // tasks.go
)

// Model is the root Bubble Tea model of mcplens: it routes messages to the
// components and lays them out. Global keys are its own; other keys go to
// the focused component; async results go by type to their owner.
type Model struct {
	*env

	view       view
	servers    serversView
	registry   registryView
	compare    compareView
	collisions collisionsView
	findings   findingsView
	offers     offersView

	pane    pane
	wire    wireView
	logs    logView
	stderr  stderrView
	tasks   tasksView
	calls   callsView
	invoke  *editorView
	result  *callView
	calling *pendingCall // the call on its way, if any (calling.go)
	ask     *asking      // the question a server asks, if any (askview.go)
	appNote chan string  // what hosted apps ask that is only shown (applink.go)
	rootsEd *rootsEditor // the roots editor, while open (roots.go)

	// appHost is the page of each app hosted, "" while it starts (apps.go).
	appHost map[string]string
	help    help.Model
	// full is set while the help screen is shown.
	full    bool
	spinner spinner.Model
	reading // the reader, the last result of each row, what y or o did (reading.go)

	navigation // the gated view, the / prompt, help's scroll, the footer's notes (search.go)

	auditing // A: the audit of the selected server and its findings (audit.go)
}

// Init starts listening to the backend and requests the background colour.
func (m Model) Init() tea.Cmd {
	return tea.Batch(waitEvent(m.backend.Events()), m.spinner.Tick, tea.RequestBackgroundColor, waitAsk(m.questions))
}

// Update routes msg, lays the components out again, and brings the view
// shown up to date with the surface.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.layout()
	derive := m.derive()
	return m, tea.Batch(cmd, derive, m.live.match())
}

// derive brings the view shown up to date, returning the command that
// computes what it lacks, if any (derive.go).
func (m *Model) derive() tea.Cmd { return m.listing(m.view).refresh() }

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
	case tea.BackgroundColorMsg:
		m.c.styles = DefaultStyles(msg.IsDark())
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		m.spin = m.spinner.View()
		m.expireNotes(msg.Time)
		if m.pane == paneStderr {
			m.stderr.refresh() // stderr sends no event: the pane reads it on every tick
		}
		return cmd
	case eventMsg:
		m.handleEvents(mcpsession.Event(msg))
		return tea.Batch(waitEvent(m.backend.Events()), m.diffRelists())
	case eventsMsg:
		m.handleEvents(msg...)
		return tea.Batch(waitEvent(m.backend.Events()), m.diffRelists())
	case derivedMsg[*compareTable]:
		return m.compare.Update(msg)
	case derivedMsg[foundList]:
		return m.findings.Update(msg)
	case relistedMsg:
		if m.live.adoptRelisted(msg) {
			m.live.layout()
			m.servers.refresh()
		}
		return m.diffRelists()
	case reportWrittenMsg, foundRowsMsg:
		return m.navDone(msg)
	case askMsg:
		m.ask = newAsking(m.env, msg)
		return m.ask.focus()
	case callDoneMsg:
		var next tea.Cmd
		if m.ask != nil && !m.ask.msg.app && m.ask.msg.question.Server == msg.route.Server {
			next = m.answer(loader.Reply{}) // the call ended: nobody waits for the answer
		}
		m.calling = nil
		m.stepUp(msg)
		m.result = m.keepResult(msg)
		m.taskEnded(msg, m.result)
		m.pane = paneResult
		return tea.Batch(next, m.recordCall(msg))
	case historyWrittenMsg:
		m.historyWritten(msg)
	case loginMsg:
		return m.loginNews(msg)
	case readMsg, copiedMsg, savedMsg, notedMsg:
		m.readingDone(msg)
	case auditDoneMsg:
		m.auditDone(msg)
	case logLevelMsg:
		return m.logs.Update(msg)
	case offerShownMsg, completedMsg, subscribedMsg:
		return m.offers.Update(msg)
	case callProgressMsg:
		return m.callProgress(msg)
	case taskStatusMsg:
		return m.taskStatus(msg)
	case rootsSetMsg:
		m.rootsDone(msg)
	case appHostedMsg:
		return m.appHosted(msg)
	case appGoneMsg:
		delete(m.appHost, msg.key)
	case appNoteMsg:
		return m.showAppNote(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	default:
		if m.ask != nil {
			cmd, _ := m.ask.Update(msg)
			return cmd
		}
		if m.rootsEd != nil {
			var cmd tea.Cmd
			m.rootsEd.text, cmd = m.rootsEd.text.Update(msg)
			return cmd
		}
		if m.view == viewOffers && m.offers.modal() {
			return m.offers.Update(msg)
		}
		if m.invoke != nil {
			return m.invoke.Update(msg)
		}
	}
	return nil
}

// handleEvents records loader events, rebuilding the surface once for all
// of them.
func (m *Model) handleEvents(evs ...mcpsession.Event) {
	changed := false
	var servers []string
	for _, ev := range evs {
		if !slices.Contains(servers, ev.Server) {
			servers = append(servers, ev.Server)
		}
		if ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			m.clients.settled(ev.Server)
		}
		if !ev.Frames && m.live.apply(ev) {
			changed = true
		}
	}
	m.takeObserved()
	if m.pane == paneWire {
		m.wire.Refresh(servers...)
	}
	if m.pane == paneLog {
		m.logs.refresh(servers...)
	}
	if changed {
		m.live.rebuild(m.policy)
		m.servers.refresh()
		m.sight()
	}
}

// handleKey takes the global keys, and hands the others to what has focus.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	m.clearNotes()
	switch {
	case key.Matches(msg, k.Interrupt):
		return m.quit()
	case m.ask != nil:
		cmd, reply := m.ask.Update(msg)
		if reply != nil {
			return tea.Batch(cmd, m.answer(*reply))
		}
		return cmd
	case m.rootsEd != nil:
		return m.updateRoots(msg)
	case m.invoke != nil || m.hist.browsing:
		return m.updateInvoke(msg)
	case m.find.typing:
		return m.typeFind(msg)
	case m.pins.confirming:
		return m.confirmReport(msg)
	case m.view == viewOffers && m.offers.modal():
		return m.offers.Update(msg)
	case m.full:
		return m.helpKey(msg)
	case m.auditing.shown != nil && m.reader == nil && !m.readerKey(msg):
		return m.updateAudit(msg)
	case m.readingTakes(msg):
		return m.updateReading(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.openHelp()
	case key.Matches(msg, k.Report):
		return m.reportKey()
	case key.Matches(msg, k.Policy):
		m.cyclePolicy(1)
	case key.Matches(msg, k.PolicyBack):
		m.cyclePolicy(-1)
	case key.Matches(msg, k.Client):
		m.cycleClient(1)
	case key.Matches(msg, k.ClientBack):
		m.cycleClient(-1)
	case key.Matches(msg, k.Protocol):
		m.cycleProtocol()
	case key.Matches(msg, k.Roots):
		return m.openRoots()
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
	case key.Matches(msg, k.Wire):
		if m.pane == paneWire {
			m.pane = paneDetail
		} else {
			m.pane = paneWire
			m.wire.Refresh(m.live.labels()...)
		}
	case m.pane == paneWire && m.wire.Takes(msg):
		return m.wire.Update(msg)
	case key.Matches(msg, k.Logs):
		m.toggleLogs()
	case m.pane == paneLog && m.logs.takes(msg):
		return m.logs.Update(msg)
	case key.Matches(msg, k.Stderr):
		m.toggleStderr()
	case key.Matches(msg, k.Restart, k.Disconnect):
		m.restartKey(key.Matches(msg, k.Restart))
	case key.Matches(msg, k.Audit):
		return m.auditKey()
	case m.pane == paneStderr && m.stderr.takes(msg):
		return m.stderr.Update(msg)
	case key.Matches(msg, k.Tasks):
		m.toggleTasks()
	case m.pane == paneTasks && m.tasks.takes(msg):
		return m.tasks.Update(msg)
	case key.Matches(msg, k.Calls):
		m.toggleCalls()
	case m.pane == paneCalls && m.calls.takes(msg):
		return m.calls.Update(msg)
	case m.view == viewOffers && m.offers.takes(msg):
		return m.offers.Update(msg)
	case m.calling != nil && key.Matches(msg, k.CancelCall):
		m.cancelCall()
		m.pane = paneResult
	case m.navTakes(msg):
		return m.updateNav(msg)
	case key.Matches(msg, k.Cancel):
		m.pane = paneDetail
	case key.Matches(msg, k.History, k.Rerun):
		return m.historyKey(msg)
	case key.Matches(msg, k.App):
		return m.hostApp()
	case key.Matches(msg, k.Invoke):
		m.openInvoke()
		if m.invoke != nil {
			return m.invoke.Focus()
		}
	default:
		if isMove(msg, k) && m.pane == paneResult {
			m.pane = paneDetail
		}
		return m.listing(m.view).Update(msg)
	}
	return nil
}

func (m *Model) cyclePolicy(step int) {
	m.clients.policyPicked = true
	n := len(m.policies)
	m.policy = (m.policy + step + n) % n
	m.live.rebuild(m.policy)
	m.servers.refresh()
}

// focus returns the component the keys go to.
func (m *Model) focus() component {
	switch {
	case m.invoke != nil:
		return m.invoke
	case m.pane == paneWire:
		return &m.wire
	case m.pane == paneLog:
		return &m.logs
	case m.pane == paneStderr:
		return &m.stderr
	case m.pane == paneTasks:
		return &m.tasks
	case m.pane == paneCalls:
		return &m.calls
	}
	return m.listing(m.view)
}

// selected returns the row under the cursor of the view shown, if any.
func (m *Model) selected() (ref, bool) { return m.listing(m.view).selected() }
