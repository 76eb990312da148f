package form

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
	"github.com/mcplens/mcplens/ui/kit"
)

// KeyMap are the form's keys. Next and Prev move between the fields:
// down/up in the argument editor, whose tab switches modes; tab too in an
// elicitation.
type KeyMap struct {
	Next, Prev, Toggle, Choose, AddItem, RemoveItem key.Binding
}

// Styles are the form's styles: a field's title, and what is muted (an
// unset value, a description).
type Styles struct {
	Title, Muted lipgloss.Style
}

// Config is what a form draws with, given by its owner. Styles is called
// at each draw: the styles follow the terminal's background.
type Config struct {
	Keys   KeyMap
	Styles func() Styles
	// Redact masks the config's secrets in what the form shows of a
	// schema (titles, descriptions, options).
	Redact *model.Redactor
}

// A Model draws a schemaform.Form and edits it: one row a field,
// nested objects and array items indented under theirs. The argument
// editor's form mode, an elicitation's form and a prompt's or a
// template's arguments are each one.
type Model struct {
	c       Config
	form    *schemaform.Form
	rows    []formRow
	focused int
	input   textinput.Model
	// at is the option under the cursor of each multi-select.
	at map[*schemaform.Field]int
	// height is how many lines the form may take; 0 is all it needs.
	// width, when set, is the most columns a line takes.
	height, width int
	// titles is the width of the titles' column (layout).
	titles int
}

// A formRow is a field as the form lists it. array and item are the
// array and the item of it the row is in (the row itself, or a field of
// the item), where ctrl+n adds an item and ctrl+r removes one.
type formRow struct {
	field       *schemaform.Field
	array, item *schemaform.Field
	depth       int
}

// New returns the form of f.
func New(c Config, f *schemaform.Form) *Model {
	v := &Model{c: c, form: f, input: textinput.New(), at: map[*schemaform.Field]int{}}
	v.input.Prompt = ""
	v.input.SetWidth(40)
	v.Layout()
	return v
}

// Layout lists the rows again, after the form changed shape.
func (v *Model) Layout() {
	v.rows = v.rows[:0]
	var walk func(fields []*schemaform.Field, in formRow, items bool)
	walk = func(fields []*schemaform.Field, in formRow, items bool) {
		for _, f := range fields {
			r := formRow{field: f, array: in.array, item: in.item, depth: in.depth}
			if items {
				r.item = f
			}
			if f.Kind == schemaform.Array {
				r.array, r.item = f, nil
			}
			v.rows = append(v.rows, r)
			r.depth++
			switch f.Kind {
			case schemaform.Object:
				walk(f.Fields, r, false)
			case schemaform.Array:
				walk(f.Items, r, true)
			}
		}
	}
	walk(v.form.Root.Fields, formRow{}, false)
	v.focused = min(v.focused, max(0, len(v.rows)-1))
	v.titles = 0
	for _, r := range v.rows {
		v.titles = max(v.titles, kit.Width(kit.Quote(v.c.Redact, kit.Cut(v.c.Redact, r.field.Path(), maxTitle)))+1+2*r.depth)
	}
	v.titles = min(v.titles, maxTitle)
}

// maxTitle bounds the width of the titles' column, whatever the names a
// schema gives its fields.
const maxTitle = 40

// typed reports whether a field is edited as text.
func typed(f *schemaform.Field) bool {
	switch f.Kind {
	case schemaform.Text, schemaform.Number, schemaform.Integer, schemaform.Raw:
		return true
	}
	return false
}

// Focus puts the cursor in the focused field, if it takes text.
func (v *Model) Focus() tea.Cmd {
	if len(v.rows) == 0 {
		v.input.Blur()
		return nil
	}
	f := v.rows[v.focused].field
	if !typed(f) || !inPlace(f) {
		v.input.Blur()
		return nil
	}
	v.input.SetValue(f.Text)
	return v.input.Focus()
}

// Blur takes the cursor out of the form.
func (v *Model) Blur() { v.input.Blur() }

func (v *Model) ShortHelp() []key.Binding {
	k := v.c.Keys
	b := []key.Binding{k.Next}
	if len(v.rows) == 0 {
		return nil
	}
	r := v.rows[v.focused]
	switch r.field.Kind {
	case schemaform.Bool, schemaform.Object:
		b = append(b, k.Toggle)
	case schemaform.Enum:
		b = append(b, k.Choose)
	case schemaform.Multi:
		b = append(b, k.Choose, k.Toggle)
	}
	if r.array != nil {
		b = append(b, k.AddItem)
	}
	if r.item != nil {
		b = append(b, k.RemoveItem)
	}
	return b
}

// Update moves, toggles, chooses, adds and removes items, or types into
// the focused field, reporting whether the form's value may have changed.
func (v *Model) Update(msg tea.Msg) (tea.Cmd, bool) {
	if len(v.rows) == 0 {
		return nil, false
	}
	k := v.c.Keys
	r := v.rows[v.focused]
	f := r.field
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(press, k.Next):
			v.focused = (v.focused + 1) % len(v.rows)
			return v.Focus(), false
		case key.Matches(press, k.Prev):
			v.focused = (v.focused + len(v.rows) - 1) % len(v.rows)
			return v.Focus(), false
		case f.Kind == schemaform.Bool && key.Matches(press, k.Toggle):
			toggle(f)
			return nil, true
		case f.Kind == schemaform.Object && !f.Required && key.Matches(press, k.Toggle):
			f.Set = !f.Set
			return nil, true
		case f.Kind == schemaform.Enum && key.Matches(press, k.Choose):
			choose(f, press.String() == "left")
			return nil, true
		case f.Kind == schemaform.Multi && len(f.Options) > 0 && key.Matches(press, k.Choose):
			step := 1
			if press.String() == "left" {
				step = len(f.Options) - 1
			}
			v.at[f] = (v.at[f] + step) % len(f.Options)
			return nil, false
		case f.Kind == schemaform.Multi && len(f.Options) > 0 && key.Matches(press, k.Toggle):
			i := v.at[f]
			f.Picked[i] = !f.Picked[i]
			f.Set = f.Required || slices.Contains(f.Picked, true)
			return nil, true
		case key.Matches(press, k.AddItem) && r.array != nil:
			it := r.array.AddItem()
			v.Layout()
			v.focusOn(it)
			return v.Focus(), true
		case key.Matches(press, k.RemoveItem) && r.item != nil:
			for i, it := range r.array.Items {
				if it == r.item {
					r.array.RemoveItem(i)
				}
			}
			v.Layout()
			v.focusOn(r.array)
			return v.Focus(), true
		}
	}
	if !typed(f) || !v.input.Focused() {
		return nil, false
	}
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(msg)
	if _, ok := msg.(tea.KeyPressMsg); !ok {
		if _, ok := msg.(tea.PasteMsg); !ok {
			return cmd, false // a blink: the value is as it was
		}
	}
	changed := v.input.Value() != f.Text
	f.Text = v.input.Value()
	if f.Kind == schemaform.Text && changed {
		f.Set = f.Text != "" || f.Required
	}
	return cmd, changed
}

// focusOn moves the focus to the row of f.
func (v *Model) focusOn(f *schemaform.Field) {
	for i, r := range v.rows {
		if r.field == f {
			v.focused = i
		}
	}
}

// toggle cycles a checkbox: an optional one without a default through
// unset, on and off; the others between on and off.
func toggle(f *schemaform.Field) {
	switch {
	case !f.Set:
		f.Set, f.On = true, true
	case f.On:
		f.On = false
	case f.Required || len(f.Default) > 0:
		f.On = true
	default:
		f.Set = false
	}
}

// choose moves an enum's choice; an optional enum without a default has
// "none" among its choices.
func choose(f *schemaform.Field, back bool) {
	n := len(f.Options)
	if n == 0 {
		return
	}
	none := !f.Required && len(f.Default) == 0
	slots := n
	if none {
		slots++ // the slot after the last option is none
	}
	at := f.Choice
	if at < 0 {
		at = n
	}
	if back {
		at = (at + slots - 1) % slots
	} else {
		at = (at + 1) % slots
	}
	if at == n {
		at = -1
	}
	f.Choice = at
}

// inPlace reports whether a text field can be typed in on its row: a
// text with line breaks, tabs or characters the terminal must not be sent
// is shown escaped and edited in the JSON mode instead.
func inPlace(f *schemaform.Field) bool {
	return !strings.ContainsAny(f.Text, "\n\t\r") && !model.Suspicious(f.Text)
}

// itemCount says how many items an array has.
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// SetSize bounds the form: height is how many lines it may take (0 is
// all it needs), width the most columns a line takes (0 is unbounded).
func (v *Model) SetSize(width, height int) { v.width, v.height = width, height }

// FullHelp is the form's keys, for the help screen.
func (v *Model) FullHelp() [][]key.Binding {
	k := v.c.Keys
	return [][]key.Binding{{k.Next, k.Prev, k.Toggle, k.Choose, k.AddItem, k.RemoveItem}}
}

// Form is the form edited.
func (v *Model) Form() *schemaform.Form { return v.form }

// Focused is the index of the row focused; Len counts the rows.
func (v *Model) Focused() int { return v.focused }

// Len counts the rows: one a field, items and nested fields included.
func (v *Model) Len() int { return len(v.rows) }

// Field is the field focused; nil when the form has none.
func (v *Model) Field() *schemaform.Field {
	if len(v.rows) == 0 {
		return nil
	}
	return v.rows[v.focused].field
}

// SetText puts value in the line being typed, the cursor at its end, as
// if typed (a completion chosen).
func (v *Model) SetText(value string) {
	v.input.SetValue(value)
	v.input.CursorEnd()
}
