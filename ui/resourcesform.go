package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// An offerPanel is what the resources & prompts view shows over its list:
// the form of a template's variables or a prompt's arguments (one text
// input each; tab asks the server to complete the field), or the wait for
// a read. What the server answers opens in the reader; its esc comes back
// to the form.
type offerPanel struct {
	server  string
	backend offersBackend
	// read is the resource to read when the panel opens, "" for a form.
	read string
	form *offerForm
	// answer is the reader the form's last answer opened.
	answer *reader
	busy   bool
	width  int
}

// An offerForm is the fields of a template or a prompt.
type offerForm struct {
	title string
	// prompt is the prompt's name; tmpl the template, for a template.
	prompt      string
	tmpl        *uritemplate.Template
	completions bool // the server offers completion/complete
	fields      []offerField
	focus       int
	// hints are the values the last completion of field hintOf offered,
	// hint the one in the field now.
	hints  []string
	hint   int
	hintOf int
	err    string
}

// An offerField is one argument or variable.
type offerField struct {
	name, desc string
	required   bool
	input      textinput.Model
}

func newField(name, desc string, required bool) offerField {
	in := textinput.New()
	in.Prompt = ""
	in.SetWidth(40)
	return offerField{name: name, desc: desc, required: required, input: in}
}

// promptForm is the form of a prompt's arguments.
func promptForm(p model.Prompt, completions bool) *offerForm {
	f := &offerForm{title: "prompt " + p.Name, prompt: p.Name, completions: completions}
	for _, a := range p.Arguments {
		f.fields = append(f.fields, newField(a.Name, a.Description, a.Required))
	}
	return f
}

// templateForm is the form of a resource template's variables.
func templateForm(t model.ResourceTemplate, completions bool) *offerForm {
	f := &offerForm{title: "template " + t.URITemplate, completions: completions}
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil {
		f.err = "the template does not parse: " + err.Error()
		return f
	}
	f.tmpl = tmpl
	for _, name := range tmpl.Varnames() {
		f.fields = append(f.fields, newField(name, "", true))
	}
	return f
}

func (p *offerPanel) setWidth(w int) { p.width = w }

// start is what opening the panel does: read the resource, or focus the
// form's first field.
func (p *offerPanel) start(e *env) tea.Cmd {
	if p.read != "" {
		p.busy = true
		return p.readCmd(p.read)
	}
	return p.form.focusField()
}

func (f *offerForm) focusField() tea.Cmd {
	var cmd tea.Cmd
	for i := range f.fields {
		if i == f.focus {
			cmd = f.fields[i].input.Focus()
		} else {
			f.fields[i].input.Blur()
		}
	}
	return cmd
}

// offerShownMsg carries what a read or a prompts/get answered; name is
// the resource's URI or the prompt's name.
type offerShownMsg struct {
	title  string
	name   string
	read   *loader.ResourceRead
	prompt *loader.PromptResult
	err    error
}

// completedMsg carries the values a server offered for field.
type completedMsg struct {
	field      int
	completion loader.Completion
	err        error
}

func (p *offerPanel) readCmd(uri string) tea.Cmd {
	b, server := p.backend, p.server
	return func() tea.Msg {
		ctx, cancel := callContext()
		defer cancel()
		read, err := b.ReadResource(ctx, server, uri)
		return offerShownMsg{title: "resources/read " + uri, name: uri, read: &read, err: err}
	}
}

// send reads the template's resource or gets the prompt with the form's
// values; an empty optional field is left out.
func (p *offerPanel) send() tea.Cmd {
	f := p.form
	values := map[string]string{}
	for _, fl := range f.fields {
		if v := fl.input.Value(); v != "" || fl.required {
			values[fl.name] = v
		}
	}
	if f.tmpl != nil {
		vals := uritemplate.Values{}
		for k, v := range values {
			vals.Set(k, uritemplate.String(v))
		}
		uri, err := f.tmpl.Expand(vals)
		if err != nil {
			f.err = "expanding the template: " + err.Error()
			return nil
		}
		p.busy = true
		return p.readCmd(uri)
	}
	b, server, name := p.backend, p.server, f.prompt
	p.busy = true
	return func() tea.Msg {
		ctx, cancel := callContext()
		defer cancel()
		got, err := b.GetPrompt(ctx, server, name, values)
		return offerShownMsg{title: "prompts/get " + name, name: name, prompt: &got, err: err}
	}
}

// complete asks the server for values of the field focused.
func (p *offerPanel) complete() tea.Cmd {
	f := p.form
	if len(f.fields) == 0 {
		return nil
	}
	if !f.completions {
		f.err = "the server does not offer completions"
		return nil
	}
	if f.hintOf == f.focus && len(f.hints) > 1 {
		// tab again: the next value offered
		f.hint = (f.hint + 1) % len(f.hints)
		f.fields[f.focus].input.SetValue(f.hints[f.hint])
		f.fields[f.focus].input.CursorEnd()
		return nil
	}
	ref := loader.CompletionRef{Prompt: f.prompt}
	if f.tmpl != nil {
		ref = loader.CompletionRef{Template: f.tmpl.Raw()}
	}
	known := map[string]string{}
	for i, fl := range f.fields {
		if v := fl.input.Value(); i != f.focus && v != "" {
			known[fl.name] = v
		}
	}
	b, server, field := p.backend, p.server, f.focus
	arg, value := f.fields[field].name, f.fields[field].input.Value()
	return func() tea.Msg {
		ctx, cancel := callContext()
		defer cancel()
		c, err := b.Complete(ctx, server, ref, arg, value, known)
		return completedMsg{field: field, completion: c, err: err}
	}
}

// update handles a message while the panel is open; a nil panel closes it.
// An answer opens the reader and closes a panel with no form.
func (p *offerPanel) update(e *env, msg tea.Msg) (*offerPanel, tea.Cmd) {
	k := e.c.keys
	switch msg := msg.(type) {
	case offerShownMsg:
		p.busy = false
		r := answerReader(e, p.server, msg)
		open := func() tea.Msg { return readMsg{r: r} }
		if p.form == nil {
			return nil, open
		}
		p.answer = r
		return p, open
	case completedMsg:
		if f := p.form; f != nil && msg.field < len(f.fields) {
			f.err, f.hints, f.hint, f.hintOf = "", nil, 0, msg.field
			switch {
			case msg.err != nil:
				f.err = msg.err.Error()
			case len(msg.completion.Values) == 0:
				f.err = "the server offered no value"
			default:
				// A value is shown in the field as it will be sent: masked
				// and sanitized, as all server text on the screen is.
				for _, v := range msg.completion.Values {
					f.hints = append(f.hints, e.c.quote(v))
				}
				f.fields[msg.field].input.SetValue(f.hints[0])
				f.fields[msg.field].input.CursorEnd()
			}
		}
		return p, nil
	case tea.KeyPressMsg:
		if key.Matches(msg, k.Cancel) {
			return nil, nil
		}
		if p.form == nil || p.busy {
			return p, nil
		}
		return p, p.formKey(msg, k)
	}
	if p.form != nil && !p.reading() && len(p.form.fields) > 0 {
		var cmd tea.Cmd
		f := &p.form.fields[p.form.focus]
		f.input, cmd = f.input.Update(msg)
		return p, cmd
	}
	return p, nil
}

// formKey handles a key in the form.
func (p *offerPanel) formKey(msg tea.KeyPressMsg, k KeyMap) tea.Cmd {
	f := p.form
	switch {
	case key.Matches(msg, k.Send):
		return p.send()
	case key.Matches(msg, k.Complete):
		return p.complete()
	case key.Matches(msg, k.FieldNext) && len(f.fields) > 0:
		f.focus = (f.focus + 1) % len(f.fields)
		return f.focusField()
	case key.Matches(msg, k.FieldPrev) && len(f.fields) > 0:
		f.focus = (f.focus + len(f.fields) - 1) % len(f.fields)
		return f.focusField()
	case len(f.fields) > 0:
		var cmd tea.Cmd
		fl := &f.fields[f.focus]
		fl.input, cmd = fl.input.Update(msg)
		if f.hintOf == f.focus {
			f.hints = nil // typed: the next tab asks again
		}
		return cmd
	}
	return nil
}

// reading reports whether the answer the form sent for is open in the
// reader: the reader takes the keys until its esc.
func (p *offerPanel) reading() bool { return p.answer != nil && !p.answer.closed }

func (p *offerPanel) help(k KeyMap) []key.Binding {
	if p.form == nil {
		return []key.Binding{k.Cancel}
	}
	return []key.Binding{k.FieldNext, k.FieldPrev, k.Complete, k.Send, k.Cancel}
}

// view draws the panel in the view's place.
func (p *offerPanel) view(c common, width, height int) string {
	if p.busy || p.form == nil {
		return contentBox(c, c.quote(p.server), []string{"waiting for the server…"}, width, height)
	}
	f := p.form
	var lines []string
	for i, fl := range f.fields {
		mark := "  "
		if i == f.focus {
			mark = "› "
		}
		name := c.quote(fl.name)
		if fl.required {
			name += "*"
		}
		lines = append(lines, mark+cell(name, 18)+" "+fl.input.View()+"  "+c.styles.Muted.Render(c.quote(firstLine(fl.desc, 120))))
		if i == f.hintOf && len(f.hints) > 1 {
			lines = append(lines, "    "+c.styles.Muted.Render("tab: "+strings.Join(f.hints, " · ")))
		}
	}
	if len(f.fields) == 0 {
		lines = append(lines, c.styles.Muted.Render("no arguments: ctrl+s sends"))
	}
	if f.err != "" {
		lines = append(lines, c.styles.ErrorText.Render(c.text(f.err)))
	}
	return contentBox(c, c.quote(p.server+" · "+f.title), lines, width, height)
}
