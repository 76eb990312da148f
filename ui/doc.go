// Package ui is mcplens's terminal interface: one Bubble Tea program over
// the servers a loader session connects and the registry a naming policy
// builds from them. It owns what the screen shows and the keys; it reads
// server state from the surface package's snapshot and statuses and
// findings from its assessment, and computes nothing of its own about
// names, statuses or findings. It must not import cli (the command line), report
// beyond rendering a report file, or the loader's session internals beyond
// the Backend it is given.
//
// Data flows one way. Loader events (a server connected, failed, listed its
// tools, moved frames over the wire) are folded by surface.Snapshot.Apply;
// the active policy's assessment (surface.Derive) gives the registry and
// each server's status; the views render them. Switching policy is a recomputation, never a
// reconnect. Switching client profile (clients.go) asks the backend, when it
// can (a Reconnect method), to reconnect each server with the profile's
// handshake; only those whose handshake differs are.
//
// What servers ask during a call (elicitation/create, sampling/createMessage)
// reaches the interface through Questions (ask.go), whose Ask is the
// session's loader.Answers.Ask: the loader's goroutine blocks on a reply
// channel, the question arrives as a message, and askview.go shows the form,
// the URL or the conversation until it is answered.
// The roots servers are answered with change in the roots editor (roots.go),
// when the backend can change them (a SetRoots method).
//
// The argument editor (ui/editor, opened from invoke.go) edits one
// schemaform.Form two ways: as JSON text and as a form (ui/form, the same
// form.Model an elicitation's form is), and checks the arguments with
// argcheck before sending them; the root places the call it sends
// (calling.go) under its editor.Target, the policy, row and route a call
// is placed under, and records each call in the history (history.go), kept
// in a file with --history; a call placed again from the history needs
// no editor, only its Target.
// What is too long for its pane is read in one reader (ui/reader, opened
// from reading.go): a call's result rendered for reading (result.go,
// content.go), a wire frame (ui/wire), a tool's whole detail (detail.go),
// a resource read or a prompt got (resourcescontent.go).
// It scrolls, searches, copies and saves; what it shows is drawn by the
// component that opened it, masked and sanitized as everywhere else.
//
// The root Model (app.go) routes messages and lays out the screen
// (screen.go); New (options.go) makes it from one Options. Each view
// (servers.go, registry.go, compare.go, collisions.go, findings.go,
// resources.go, gated.go) and each bottom pane (ui/wire, logpane.go,
// stderrpane.go, observed.go) is a component (component.go): it is given
// its size, owns its cursor, scroll and cache, and says which keys work in
// it, so the footer and the help screen come from the focused component.
// A view is a type that implements listing, a case in Model.listing and a
// key in KeyMap.Views. The / prompt (search.go) takes every key while a
// query is typed; the query filters the servers view's rows, which the
// live state lays out (state.go: liveState, the snapshot, its assessment
// and the servers view's lines).
//
// Components come in two kinds. Those that read the session (the views,
// the panes but the wire pane) live in this package
// and are given the *env: what the root holds (the live state, the
// policy, the backend and its capabilities) and every component reads.
// Those that stand alone live in packages of their own under ui, the way
// bubbles' components do: ui/form (a schemaform.Form edited, row by row),
// ui/editor (the argument editor, a form and JSON text over one
// schemaform.Form), ui/reader (one long thing read whole), ui/wire (the
// wire pane, which reads the frames through a wire.Source rather than the
// env) and ui/inputs (the prompt for a config's ${input:ID}, a program
// run before the interface, from inputs.go). Such a package has a Model
// with SetSize, Update, View, ShortHelp and FullHelp, and its own KeyMap
// and Styles, given in a Config; it imports ui/kit (text measuring and
// cutting, masking, the movement keys, the scroller, the query line, the
// box drawn over the screen) and never ui. One small file here fills its
// Config from the interface's keys, styles and redactor (forms.go,
// editors.go, readers.go, wires.go, inputs.go) and names its type for the
// rest of the package (formView, editorView, readerView, wireView). What
// such a component decides for its owner it says after Update rather than
// doing it (the editor's Sent and Closed; the form's changed). A new piece
// that needs the session goes in a file here; a new piece that does not
// goes in a package under ui.
//
// What the interface asks of what feeds it is in one file (backend.go):
// Backend, which every backend is, and the optional capabilities (reconnect,
// retry after a login, logs, a tap's client, resources, restart, roots),
// found once when the Model is made and read from env.can; a component
// never asserts the backend's type.
//
// The tasks pane (tasks.go) lists the calls that became tasks, their
// statuses as the loader reports them, and cancels one or reads its result.
// The stderr pane (stderrpane.go) shows a server's stderr tail, read on
// every tick while open; x and X (restart.go) restart, disconnect and
// connect the selected server through the backend (a Restart, Disconnect
// and Connect method), the loader's events saying how it goes. Every box
// drawn over the screen fits it (kit.Box, in the styles of box.go): its
// lines cut, its content scrolled in the lines its title and keys leave.
//
// A backend that shows what a real client did through a tap (an
// ObservedBackend: a recording opened offline, or mcplens watch's live
// taps) gives the calls pane (observed.go) the client's calls, judged by
// model.JudgeCall against the registry shown, and its client profile. The
// taps' servers need no config: an event that declares a server adds it
// (surface.Snapshot.Apply), and the panes that cycle servers make room
// for it.
package ui
