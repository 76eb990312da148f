package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
	"github.com/mcplens/mcplens/ui/editor"
	"github.com/mcplens/mcplens/ui/kit"
)

// callTimeout bounds an interactive call.
const callTimeout = 60 * time.Second

// An argMode is how the argument editor edits: JSON text or a form.
type argMode int

const (
	modeJSON argMode = iota
	modeForm
)

// An invoke is the argument editor for one call through the registry: the
// JSON mode (a textarea) and the form mode (a formView) over one
// schemaform.Form, and the input schema the arguments are checked
// against before they are sent.
type invoke struct {
	e      *env
	policy string
	row    model.Outcome
	route  model.Route
	editor textarea.Model
	form   *formView
	hints  []schemaform.Hint
	mode   argMode
	// schema checks the arguments, once compiled in the background.
	schema *inputSchema
	// start is the arguments the editor opened with, to tell whether
	// any were typed.
	start string
	err   string
	// problems are the schema's objections to the arguments last sent;
	// armed is set while they are shown: ctrl+s again sends anyway.
	problems []argcheck.Problem
	armed    bool
	// discarding is set while esc asks whether to throw typed
	// arguments away.
	discarding bool
}

// callDoneMsg is the end of one call, successful or not.
type callDoneMsg struct {
	policy string
	row    model.Outcome
	route  model.Route
	result mcpsession.CallResult
	err    error
}

// openInvoke opens the editor on the selected row, routed the way the
// registry routes the row's registered name, on the arguments of the last
// call to the same tool, else on the skeleton of its input schema.
func (m *Model) openInvoke() {
	if r, ok := m.selected(); ok {
		m.openInvokeOn(r, nil)
	}
}

// openInvokeOn opens the editor on row r under the active policy, on args
// when given (a call of the history), else as openInvoke does.
func (m *Model) openInvokeOn(r ref, args json.RawMessage) {
	o, t, ok := m.live.outcomeAt(r)
	if !ok || o.Name == "" {
		return
	}
	route, ok := m.live.reg.Lookup(o.Name)
	form := schemaform.New(t.InputSchema, true)
	text := schemaform.Format(form.Value())
	if args == nil {
		if last, found := m.hist.last(route.Server, route.Wire); ok && found {
			args = last.Arguments
		}
	}
	if args != nil && form.Fill(args) == nil {
		text = schemaform.Format(args, nil)
	}
	k := m.c.keys
	inv := &invoke{e: m.env, policy: m.activePolicy().Name, row: o, route: route, start: text,
		editor: textarea.New(), form: newFormView(m.env, form, k.FormNext, k.FormPrev), hints: form.Hints()}
	inv.editor.ShowLineNumbers = false
	inv.editor.SetValue(text)
	inv.schema = &inputSchema{raw: t.InputSchema, done: make(chan struct{})}
	if !ok {
		inv.err = fmt.Sprintf("%s is not in the registry under %s: nothing to call", o.Name, inv.policy)
	}
	inv.SetSize(m.c.width, m.c.height)
	m.invoke = inv
}

func (v *invoke) focus() tea.Cmd {
	compile := v.schema.start()
	if v.mode == modeForm {
		v.editor.Blur()
		return tea.Batch(compile, v.form.Focus())
	}
	v.form.Blur()
	return tea.Batch(compile, v.editor.Focus())
}

// An inputSchema is a tool's input schema, compiled once: in the
// background when the editor opens (a large schema takes a while), or at
// the latest when the arguments are sent.
type inputSchema struct {
	raw     json.RawMessage
	once    sync.Once
	started bool
	sch     *argcheck.Schema
	err     error
	done    chan struct{} // closed once compiled
}

// start returns the command that compiles the schema, the first time.
func (s *inputSchema) start() tea.Cmd {
	if s == nil || s.started {
		return nil
	}
	s.started = true
	return func() tea.Msg {
		s.compiled()
		return nil
	}
}

// compiled returns the compiled schema, compiling it if need be.
func (s *inputSchema) compiled() (*argcheck.Schema, error) {
	s.once.Do(func() {
		s.sch, s.err = argcheck.Compile(s.raw)
		close(s.done)
	})
	return s.sch, s.err
}

// problem says why the arguments are not checked, once that is known.
func (s *inputSchema) problem() string {
	if s == nil {
		return ""
	}
	select {
	case <-s.done:
		if s.err != nil {
			return "the arguments are not checked: " + s.err.Error()
		}
	default:
	}
	return ""
}

// hintLines is how many lines of hints the JSON mode shows.
func (v *invoke) hintLines(height int) int {
	if height < 30 {
		return min(len(v.hints), 3)
	}
	return min(len(v.hints), 6)
}

// SetSize fits the editor to a screen of width × height; View fits the
// JSON and the form to what its box leaves them.
func (v *invoke) SetSize(width, height int) {
	v.editor.SetWidth(max(10, min(90, kit.BoxInner(width))))
	v.editor.SetHeight(max(3, min(14, kit.BoxRoom(height)-8)))
}

func (v *invoke) ShortHelp() []key.Binding {
	k := v.e.c.keys
	b := []key.Binding{k.Send, k.Mode}
	if v.mode == modeForm {
		b = append(b, v.form.ShortHelp()...)
	}
	return append(b, k.Cancel)
}

func (v *invoke) FullHelp() [][]key.Binding { return [][]key.Binding{v.ShortHelp()} }

// Update edits the arguments, in the JSON or in the form.
func (v *invoke) Update(msg tea.Msg) tea.Cmd {
	if v.mode == modeForm {
		cmd, _ := v.form.Update(msg)
		return cmd
	}
	var cmd tea.Cmd
	v.editor, cmd = v.editor.Update(msg)
	return cmd
}

// arguments are the arguments as the mode shown has them, or why they are
// not JSON (with its line and column) or not what the form's fields say.
func (v *invoke) arguments() ([]byte, error) {
	if v.mode == modeForm {
		return v.form.Form().Value()
	}
	text := []byte(strings.TrimSpace(v.editor.Value()))
	if len(text) == 0 {
		text = []byte("{}")
	}
	return text, argcheck.Syntax(text)
}

// typed reports whether the arguments differ from those the editor
// opened with.
func (v *invoke) typed() bool {
	args, err := v.arguments()
	if err != nil {
		return true
	}
	return schemaform.Format(args, nil) != schemaform.Format([]byte(v.start), nil)
}

// switchMode goes from the JSON to the form or back, carrying the
// arguments over; JSON with an error, or that is not an object, stays.
func (v *invoke) switchMode() tea.Cmd {
	args, err := v.arguments()
	switch {
	case err != nil:
		v.err = "arguments: " + err.Error()
		return nil
	case v.mode == modeJSON:
		if err := v.form.Form().Fill(args); err != nil {
			v.err = err.Error()
			return nil
		}
		v.form.Layout()
		v.mode = modeForm
	default:
		v.editor.SetValue(schemaform.Format(args, nil))
		v.mode = modeJSON
	}
	v.err = ""
	return v.focus()
}

// updateInvoke sends the call, switches modes, closes the editor (asking
// first when arguments were typed), or edits.
func (m *Model) updateInvoke(msg tea.KeyPressMsg) tea.Cmd {
	if m.hist.browsing {
		return m.updateHistory(msg)
	}
	k := m.c.keys
	inv := m.invoke
	if inv.discarding {
		inv.discarding, inv.err = false, ""
		if key.Matches(msg, k.Yes) {
			m.invoke = nil
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Cancel):
		if inv.typed() {
			inv.discarding = true
			inv.err = "throw away the arguments typed? y throws them away, any other key goes back"
			return nil
		}
		m.invoke = nil
		return nil
	case key.Matches(msg, k.Mode):
		return inv.switchMode()
	case key.Matches(msg, k.Send):
		return m.send()
	}
	inv.armed = false
	return inv.Update(msg)
}

// send places the call, unless the arguments are not JSON, or fail the
// input schema the first time ctrl+s is pressed: the problems are listed
// and only ctrl+s again sends them anyway.
func (m *Model) send() tea.Cmd {
	inv := m.invoke
	if inv.route.Name == "" {
		return nil
	}
	args, err := inv.arguments()
	if err != nil {
		inv.err = "arguments: " + err.Error()
		return nil
	}
	if m.calling != nil {
		inv.err = "a call is running: esc here, then esc again cancels it"
		return nil
	}
	if !inv.armed {
		sch, _ := inv.schema.compiled()
		if ps, err := sch.Check(args); err == nil && len(ps) > 0 {
			inv.problems, inv.armed = ps, true
			inv.err = fmt.Sprintf("the arguments fail the input schema (%d): nothing was sent; ctrl+s again sends them anyway", len(ps))
			return nil
		}
	}
	m.invoke = nil
	return m.place(editor.Target{Policy: inv.policy, Row: inv.row, Route: inv.route}, args)
}
