package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
)

// A formView draws a schemaform.Form and edits it: one row a field,
// nested objects and array items indented under theirs. The argument
// editor's form mode and an elicitation's form are both one.
type formView struct {
	e    *env
	form *schemaform.Form
	// next and prev move between the fields: down/up in the argument
	// editor, whose tab switches modes; tab too in an elicitation.
	next, prev key.Binding
	rows       []formRow
	focused    int
	input      textinput.Model
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

func newFormView(e *env, form *schemaform.Form, next, prev key.Binding) *formView {
	v := &formView{e: e, form: form, next: next, prev: prev, input: textinput.New(), at: map[*schemaform.Field]int{}}
	v.input.Prompt = ""
	v.input.SetWidth(40)
	v.layout()
	return v
}

// layout lists the rows again, after the form changed shape.
func (v *formView) layout() {
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
		v.titles = max(v.titles, textWidth(model.Sanitize(cut(v.e.c, r.field.Path(), maxTitle)))+1+2*r.depth)
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

// focus puts the cursor in the focused field, if it takes text.
func (v *formView) focus() tea.Cmd {
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

func (v *formView) blur() { v.input.Blur() } // the cursor out of the form

func (v *formView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	b := []key.Binding{v.next}
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
func (v *formView) Update(msg tea.Msg) (tea.Cmd, bool) {
	if len(v.rows) == 0 {
		return nil, false
	}
	k := v.e.c.keys
	r := v.rows[v.focused]
	f := r.field
	if press, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(press, v.next):
			v.focused = (v.focused + 1) % len(v.rows)
			return v.focus(), false
		case key.Matches(press, v.prev):
			v.focused = (v.focused + len(v.rows) - 1) % len(v.rows)
			return v.focus(), false
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
			v.layout()
			v.focusOn(it)
			return v.focus(), true
		case key.Matches(press, k.RemoveItem) && r.item != nil:
			for i, it := range r.array.Items {
				if it == r.item {
					r.array.RemoveItem(i)
				}
			}
			v.layout()
			v.focusOn(r.array)
			return v.focus(), true
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
func (v *formView) focusOn(f *schemaform.Field) {
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

// View draws the rows: a mark on the focused one, the title (* when
// required), the value, and under a field its description. With a height,
// only the lines around the focused row are drawn.
func (v *formView) View() string {
	s := v.e.c.styles
	if len(v.rows) == 0 {
		return s.Muted.Render("(no fields)")
	}
	// Only the rows in sight are drawn: a schema can have thousands.
	first, last := 0, len(v.rows)
	if v.height > 0 {
		first = max(0, v.focused-v.height/2)
		last = min(len(v.rows), first+v.height)
	}
	clip := v.clip
	titles := v.titles
	if v.width > 0 {
		// The titles take at most half a narrow line, the input the rest.
		titles = min(titles, max(8, v.width/2-2))
		v.input.SetWidth(max(4, min(40, v.width-titles-5)))
	}
	var lines []string
	at := 0
	for i := first; i < last; i++ {
		r := v.rows[i]
		f := r.field
		mark := "  "
		if i == v.focused {
			mark, at = "▸ ", len(lines)
		}
		title := strings.Repeat("  ", r.depth) + clip(f.Path())
		if f.Required && r.item != f {
			title += "*"
		}
		lines = append(lines, mark+s.PolicyName.Render(cell(title, titles))+"  "+v.shown(i))
		if f.Description != "" {
			lines = append(lines, "  "+strings.Repeat("  ", r.depth)+s.Muted.Render(clip(f.Description)))
		}
	}
	if v.height > 0 && len(lines) > v.height {
		top := min(max(0, at-v.height/2), len(lines)-v.height)
		lines = lines[top : top+v.height]
	}
	if v.width > 0 {
		for i, l := range lines {
			lines[i] = truncate(l, v.width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// clip is server text for one line of the form: cut to what the line can
// show, when the form has a width, and sanitized.
func (v *formView) clip(text string) string {
	if v.width > 0 {
		text = cut(v.e.c, text, 4*v.width)
	}
	return model.Sanitize(text)
}

// shown is row i's value as the form draws it.
func (v *formView) shown(i int) string {
	s := v.e.c.styles
	f := v.rows[i].field
	unset := s.Muted.Render("–")
	switch f.Kind {
	case schemaform.Bool:
		switch {
		case !f.Set:
			return unset
		case f.On:
			return "[x]"
		}
		return "[ ]"
	case schemaform.Enum:
		label := f.Shown()
		if label == "" {
			label = "–"
		}
		if f.Choice < 0 {
			return "‹ " + label + " ›"
		}
		return fmt.Sprintf("‹ %s ›  %d/%d", v.clip(label), f.Choice+1, len(f.Options))
	case schemaform.Multi:
		var opts []string
		room := 4 * v.width // what the line can show, when the form has a width
		for j := range f.Options {
			if v.width > 0 && room <= 0 {
				opts = append(opts, "…")
				break
			}
			box := "[ ] "
			if f.Picked[j] {
				box = "[x] "
			}
			o := box + v.clip(f.Option(j))
			if i == v.focused && j == v.at[f] {
				o = "‹" + o + "›"
			}
			opts = append(opts, o)
			room -= len(o) + 1
		}
		return strings.Join(opts, " ")
	case schemaform.Object:
		if !f.Set {
			return s.Muted.Render("– (space adds it)")
		}
		return ""
	case schemaform.Array:
		return s.Muted.Render(itemCount(len(f.Items)))
	}
	if i == v.focused && v.input.Focused() {
		return v.input.View()
	}
	if !f.Present() {
		return unset
	}
	if !inPlace(f) {
		return v.clip(f.Text) + s.Muted.Render("  (tab: edit it as JSON)")
	}
	return v.clip(f.Text)
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
