package ui

import "charm.land/bubbles/v2/key"

// KeyMap declares every key mcplens answers to, once.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Left, Right                             key.Binding

	NextView, PrevView key.Binding
	Views              []key.Binding
	Providers          key.Binding
	Disagree           key.Binding

	Policy     key.Binding
	PolicyBack key.Binding
	Client     key.Binding
	ClientBack key.Binding
	// Protocol forces the next protocol revision on every server
	// (protocol.go).
	Protocol key.Binding
	Invoke   key.Binding
	// App hosts the selected tool's MCP App (apps.go).
	App        key.Binding
	Wire       key.Binding
	WireServer key.Binding
	Logs       key.Binding
	// Stderr opens the stderr pane (stderrpane.go).
	Stderr key.Binding
	// Tasks opens the tasks pane; CancelTask cancels the task under its
	// cursor (tasks.go).
	Tasks, CancelTask key.Binding
	// Restart restarts the selected server; Disconnect disconnects it, or
	// connects it again (restart.go).
	Restart, Disconnect key.Binding
	Calls               key.Binding
	LogLevel            key.Binding
	LogServer           key.Binding
	Login               key.Binding
	Help                key.Binding
	Quit                key.Binding
	// Interrupt quits whatever is open: a question, an editor, a search.
	Interrupt key.Binding
	Report    key.Binding

	Send   key.Binding
	Cancel key.Binding
	// CancelCall gives up the call running.
	CancelCall key.Binding
	// Yes answers a question in the footer; any other key says no.
	Yes key.Binding

	// The keys of a question a server asks (askview.go).
	Accept, Decline, Dismiss, OpenURL, No key.Binding
	SendReply, Reject                     key.Binding
	// ReadAll reads a question's whole text in the reader.
	ReadAll              key.Binding
	NextField, PrevField key.Binding
	Toggle, Choose       key.Binding

	// Navigation of the tool rows (search.go, servers.go): / filters
	// by name, n/N go to the next/previous match, [/] to the next or
	// previous server, space folds a server; Keep ends typing and keeps
	// the filter, OpenCell shows a compare row's full cells.
	Search, NextMatch, PrevMatch, NextServer, PrevServer, Collapse, Keep, OpenCell key.Binding
	// The argument editor's (invoke.go): switch between the form and the
	// JSON, move in the form, add and remove array items; the history
	// (history.go): list the calls made, run the last one again.
	Mode, FormNext, FormPrev key.Binding
	AddItem, RemoveItem      key.Binding
	History, Rerun           key.Binding
	// In the call history: edit the chosen call, or send it again.
	HistoryEdit, HistorySend key.Binding
	// Reader is the keys of the reader and of what opens it (ui/reader, readerkeys.go).
	Reader ReaderKeys

	// Answer and Skip are the keys of the inputs asked before the
	// servers start (inputs.go).
	Answer, Skip key.Binding

	// Roots opens the roots editor (roots.go); ApplyRoots applies it.
	Roots, ApplyRoots key.Binding

	// The keys of the resources & prompts view (resources.go): open a
	// line, (un)subscribe to a resource, and in its forms complete a field
	// and move between fields.
	Open, Subscribe, Complete, FieldNext, FieldPrev key.Binding

	// Audit audits the selected server against the specification (audit.go).
	Audit key.Binding
}

// DefaultKeyMap returns mcplens's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "policies left")),
		Right:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "policies right")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
		NextView: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next view")),
		PrevView: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous view")),
		Views: []key.Binding{
			key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "servers")),
			key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "registry")),
			key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "compare")),
			key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "collisions")),
			key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "findings")),
			key.NewBinding(key.WithKeys("6"), key.WithHelp("6", "resources & prompts")),
			key.NewBinding(key.WithKeys("7"), key.WithHelp("7", "gated")),
		},
		Providers:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "provider checks")),
		Disagree:    key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "only disagreements")),
		Policy:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "next policy")),
		PolicyBack:  key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "previous policy")),
		Client:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "next client")),
		ClientBack:  key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "previous client")),
		Protocol:    key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "next protocol")),
		Invoke:      key.NewBinding(key.WithKeys("i", "enter"), key.WithHelp("i/enter", "invoke")),
		App:         key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "host the tool's app")),
		Wire:        key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wire pane")),
		WireServer:  key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "wire: next server")),
		Logs:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "log pane")),
		Stderr:      key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "stderr pane")),
		Tasks:       key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "tasks pane")),
		CancelTask:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel the task")),
		Restart:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "restart the server")),
		Disconnect:  key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "disconnect/connect it")),
		Audit:       key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "audit the server")),
		LogLevel:    key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "log: next level")),
		Calls:       key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tapped client's calls")),
		Login:       key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log in")),
		Roots:       key.NewBinding(key.WithKeys("O"), key.WithHelp("O", "edit roots")),
		ApplyRoots:  key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "apply roots")),
		LogServer:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "next server")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:        key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Interrupt:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit, whatever is open")),
		Report:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "write report ("+ReportFile+")")),
		Send:        key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send call")),
		Cancel:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		CancelCall:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancels the call")),
		Yes:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		Accept:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "accept")),
		Decline:     key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "decline")),
		No:          key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "decline")),
		SendReply:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send reply")),
		Reject:      key.NewBinding(key.WithKeys("ctrl+x", "esc"), key.WithHelp("ctrl+x/esc", "reject")),
		ReadAll:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "read it all")),
		Dismiss:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		OpenURL:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "open in a browser")),
		NextField:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		PrevField:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Toggle:      key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "toggle")),
		Choose:      key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose")),
		Search:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "find")),
		NextMatch:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/prev match")),
		PrevMatch:   key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		NextServer:  key.NewBinding(key.WithKeys("]"), key.WithHelp("]/[", "next/prev server")),
		PrevServer:  key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous server")),
		Collapse:    key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "fold server")),
		Keep:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		OpenCell:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "full cells")),
		Mode:        key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "form/JSON")),
		FormNext:    key.NewBinding(key.WithKeys("down"), key.WithHelp("↓/↑", "field")),
		FormPrev:    key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous field")),
		AddItem:     key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "add item")),
		RemoveItem:  key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "remove item")),
		History:     key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "call history")),
		Rerun:       key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "re-run the last call")),
		HistoryEdit: key.NewBinding(key.WithKeys("enter", "i"), key.WithHelp("enter", "edit this call")),
		HistorySend: key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "send it again")),
		Answer:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer")),
		Reader:      defaultReaderKeys(),
		Skip:        key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "skip the rest (their servers are not started)")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read / fill in")),
		Subscribe:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "(un)subscribe")),
		Complete:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		FieldNext:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next field")),
		FieldPrev:   key.NewBinding(key.WithKeys("up", "shift+tab"), key.WithHelp("↑", "previous field")),
	}
}
