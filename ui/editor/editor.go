package editor

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
	"github.com/mcplens/mcplens/ui/form"
	"github.com/mcplens/mcplens/ui/kit"
)

// KeyMap are the editor's keys: Send places the call, Mode goes from the
// JSON to the form and back, Cancel closes the editor (asking first when
// arguments were typed), and Yes, when it asks, throws them away. The
// form mode's keys are the form's (Config.Form).
type KeyMap struct {
	Send, Mode, Cancel, Yes key.Binding
}

// Styles are the editor's styles: the title, a tool's registered name,
// what is muted (the policy, the hints), the wire name, a route that
// reaches another tool, what is wrong, and the box it is drawn in.
type Styles struct {
	Header, Name, Muted, In, Warn, Error lipgloss.Style
	Box                                  kit.BoxStyles
}

// Config is what an editor draws with, given by its owner. Styles is
// called at each draw: the styles follow the terminal's background.
type Config struct {
	Keys   KeyMap
	Styles func() Styles
	// Redact masks the config's secrets in what the editor shows: what
	// is wrong, and what a schema says (the hints, and the form's titles,
	// descriptions and options through Form).
	Redact *model.Redactor
	// Form is the form mode's configuration.
	Form form.Config
}

// A mode is how the editor edits: JSON text or a form.
type mode int

const (
	modeJSON mode = iota
	modeForm
)

// A Model is the argument editor for one call under a Target: the JSON
// mode (a textarea) and the form mode (a form.Model) over one
// schemaform.Form, and the input schema the arguments are checked
// against before they are sent.
type Model struct {
	c      Config
	target Target
	editor textarea.Model
	form   *form.Model
	hints  []schemaform.Hint
	mode   mode
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
	// calling is set while a call is running: nothing is sent then.
	calling bool
	// width and height are the screen's, which the box fits.
	width, height int
	// What the last key did: closed the editor, or sent args.
	closed, sent bool
	args         json.RawMessage
}

// New returns the editor of a call under t to a tool whose input schema
// is schema: on args when given and the form takes them (the last call
// to the tool, or a call of the history), else on the schema's skeleton.
// A target without a route says there is nothing to call.
func New(c Config, t Target, schema, args json.RawMessage) *Model {
	f := schemaform.New(schema, true)
	text := schemaform.Format(f.Value())
	if args != nil && f.Fill(args) == nil {
		text = schemaform.Format(args, nil)
	}
	v := &Model{c: c, target: t, start: text, editor: textarea.New(), form: form.New(c.Form, f), hints: f.Hints()}
	v.editor.ShowLineNumbers = false
	v.editor.SetValue(text)
	v.schema = &inputSchema{raw: schema, done: make(chan struct{})}
	if t.Route.Name == "" {
		v.err = fmt.Sprintf("%s is not in the registry under %s: nothing to call", t.Row.Name, t.Policy)
	}
	return v
}

// Target is what the call is placed under.
func (v *Model) Target() Target { return v.target }

// Focus puts the cursor in the mode shown, and starts compiling the
// input schema the first time.
func (v *Model) Focus() tea.Cmd {
	compile := v.schema.start()
	if v.mode == modeForm {
		v.editor.Blur()
		return tea.Batch(compile, v.form.Focus())
	}
	v.form.Blur()
	return tea.Batch(compile, v.editor.Focus())
}

// hintLines is how many lines of hints the JSON mode shows.
func (v *Model) hintLines(height int) int {
	if height < 30 {
		return min(len(v.hints), 3)
	}
	return min(len(v.hints), 6)
}

// SetSize fits the editor to a screen of width × height; View fits the
// JSON and the form to what its box leaves them.
func (v *Model) SetSize(width, height int) {
	v.width, v.height = width, height
	v.editor.SetWidth(max(10, min(90, kit.BoxInner(width))))
	v.editor.SetHeight(max(3, min(14, kit.BoxRoom(height)-8)))
}

func (v *Model) ShortHelp() []key.Binding {
	k := v.c.Keys
	b := []key.Binding{k.Send, k.Mode}
	if v.mode == modeForm {
		b = append(b, v.form.ShortHelp()...)
	}
	return append(b, k.Cancel)
}

func (v *Model) FullHelp() [][]key.Binding { return [][]key.Binding{v.ShortHelp()} }

// SetCalling says whether a call is running: while one is, the editor
// sends nothing and says why.
func (v *Model) SetCalling(running bool) { v.calling = running }

// Closed reports whether the last key closed the editor: esc with nothing
// typed, y when asked, or the arguments sent.
func (v *Model) Closed() bool { return v.closed }

// Sent returns the arguments the last key sent, if it sent them.
func (v *Model) Sent() (json.RawMessage, bool) { return v.args, v.sent }

// SetText replaces the JSON mode's text, as typing it would.
func (v *Model) SetText(text string) {
	v.editor.SetValue(text)
	v.armed = false
}

// Update sends the arguments, switches modes, closes the editor (asking
// first when arguments were typed), or edits; Closed and Sent say what
// it did.
func (v *Model) Update(msg tea.Msg) tea.Cmd {
	v.closed, v.sent, v.args = false, false, nil
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v.edit(msg)
	}
	k := v.c.Keys
	if v.discarding {
		v.discarding, v.err = false, ""
		v.closed = key.Matches(press, k.Yes)
		return nil
	}
	switch {
	case key.Matches(press, k.Cancel):
		if v.typed() {
			v.discarding = true
			v.err = "throw away the arguments typed? y throws them away, any other key goes back"
			return nil
		}
		v.closed = true
		return nil
	case key.Matches(press, k.Mode):
		return v.switchMode()
	case key.Matches(press, k.Send):
		v.send()
		return nil
	}
	v.armed = false
	return v.edit(msg)
}

// edit edits the arguments, in the JSON or in the form.
func (v *Model) edit(msg tea.Msg) tea.Cmd {
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
func (v *Model) arguments() ([]byte, error) {
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
func (v *Model) typed() bool {
	args, err := v.arguments()
	if err != nil {
		return true
	}
	return schemaform.Format(args, nil) != schemaform.Format([]byte(v.start), nil)
}

// switchMode goes from the JSON to the form or back, carrying the
// arguments over; JSON with an error, or that is not an object, stays.
func (v *Model) switchMode() tea.Cmd {
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
	return v.Focus()
}

// send sends the arguments, unless the target has no route, the
// arguments are not JSON, a call is running, or they fail the input
// schema the first time ctrl+s is pressed: the problems are listed and
// only ctrl+s again sends them anyway.
func (v *Model) send() {
	if v.target.Route.Name == "" {
		return
	}
	args, err := v.arguments()
	if err != nil {
		v.err = "arguments: " + err.Error()
		return
	}
	if v.calling {
		v.err = "a call is running: esc here, then esc again cancels it"
		return
	}
	if !v.armed {
		sch, _ := v.schema.compiled()
		if ps, err := sch.Check(args); err == nil && len(ps) > 0 {
			v.problems, v.armed = ps, true
			v.err = fmt.Sprintf("the arguments fail the input schema (%d): nothing was sent; ctrl+s again sends them anyway", len(ps))
			return
		}
	}
	v.closed, v.sent, v.args = true, true, args
}
