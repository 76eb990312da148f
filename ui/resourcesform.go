package ui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
)

// An offerPanel is what the resources & prompts view shows over its list:
// the form of a template's variables or a prompt's arguments (ui/form's
// form of a schema with one string property each; tab asks the server to
// complete the field), or the wait for a read. What the server answers opens in the reader; its esc comes back
// to the form.
type offerPanel struct {
	server  string
	backend offersBackend
	// read is the resource to read when the panel opens, "" for a form.
	read string
	form *offerForm
	// answer is the reader the form's last answer opened.
	answer *readerView
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
	view        *formView
	// hints are the values the last completion of the field of row
	// hintOf offered, hint the one in the field now.
	hints  []string
	hint   int
	hintOf int
	err    string
}

// An offerArg is one argument or variable of a form.
type offerArg struct {
	name, desc string
	required   bool
}

// newOfferForm is the form of args: the schema of an object with one
// string property each, in their order, drawn and edited by ui/form.
func newOfferForm(e *env, f *offerForm, args []offerArg) *offerForm {
	var props []string
	required := []string{}
	for _, a := range args {
		prop := map[string]string{"type": "string"}
		if a.desc != "" {
			prop["description"] = a.desc
		}
		props = append(props, jsonValue(a.name)+":"+jsonValue(prop))
		if a.required {
			required = append(required, a.name)
		}
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":` + jsonValue(required) + `}`
	k := e.c.keys
	f.view = newFormView(e, schemaform.New(json.RawMessage(schema), true), k.FieldNext, k.FieldPrev)
	f.hintOf = -1
	return f
}

// jsonValue is v as JSON.
func jsonValue(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// promptForm is the form of a prompt's arguments.
func promptForm(e *env, p model.Prompt, completions bool) *offerForm {
	args := make([]offerArg, len(p.Arguments))
	for i, a := range p.Arguments {
		args[i] = offerArg{a.Name, a.Description, a.Required}
	}
	return newOfferForm(e, &offerForm{title: "prompt " + p.Name, prompt: p.Name, completions: completions}, args)
}

// templateForm is the form of a resource template's variables.
func templateForm(e *env, t model.ResourceTemplate, completions bool) *offerForm {
	f := &offerForm{title: "template " + t.URITemplate, completions: completions}
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil {
		f.err = "the template does not parse: " + err.Error()
		return newOfferForm(e, f, nil)
	}
	f.tmpl = tmpl
	var args []offerArg
	for _, name := range tmpl.Varnames() {
		args = append(args, offerArg{name: name, required: true})
	}
	return newOfferForm(e, f, args)
}

// values are the form's values by name; an empty optional field is left
// out.
func (f *offerForm) values() map[string]string {
	values := map[string]string{}
	if raw, err := f.view.Form().Value(); err == nil {
		_ = json.Unmarshal(raw, &values) // every property is a string
	}
	return values
}

// field is the field of the form's focused row, nil when it has none.
func (f *offerForm) field() *schemaform.Field {
	return f.view.Field()
}

// setField puts value in the focused field, as if typed.
func (f *offerForm) setField(value string) {
	fd := f.field()
	fd.Text, fd.Set = value, true
	f.view.SetText(value)
}

func (p *offerPanel) setWidth(w int) { p.width = w }

// start is what opening the panel does: read the resource, or focus the
// form's first field.
func (p *offerPanel) start(e *env) tea.Cmd {
	if p.read != "" {
		p.busy = true
		return p.readCmd(p.read)
	}
	return p.form.view.Focus()
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
	values := f.values()
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
	fd := f.field()
	if fd == nil {
		return nil
	}
	if !f.completions {
		f.err = "the server does not offer completions"
		return nil
	}
	if f.hintOf == f.view.Focused() && len(f.hints) > 1 {
		// tab again: the next value offered
		f.hint = (f.hint + 1) % len(f.hints)
		f.setField(f.hints[f.hint])
		return nil
	}
	ref := loader.CompletionRef{Prompt: f.prompt}
	if f.tmpl != nil {
		ref = loader.CompletionRef{Template: f.tmpl.Raw()}
	}
	known := f.values()
	delete(known, fd.Name)
	for name, v := range known {
		if v == "" {
			delete(known, name)
		}
	}
	b, server, field := p.backend, p.server, f.view.Focused()
	arg, value := fd.Name, fd.Text
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
		if f := p.form; f != nil && msg.field == f.view.Focused() {
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
				f.setField(f.hints[0])
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
	if p.form != nil && !p.reading() {
		cmd, _ := p.form.view.Update(msg)
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
	}
	cmd, changed := f.view.Update(msg)
	if changed && f.hintOf == f.view.Focused() {
		f.hints = nil // typed: the next tab asks again
	}
	return cmd
}

// reading reports whether the answer the form sent for is open in the
// reader: the reader takes the keys until its esc.
func (p *offerPanel) reading() bool { return p.answer != nil && !p.answer.Closed() }

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
	var foot []string
	if f.hintOf == f.view.Focused() && len(f.hints) > 1 {
		foot = append(foot, c.styles.Muted.Render("tab: "+strings.Join(f.hints, " · ")))
	}
	if f.err != "" {
		foot = append(foot, c.styles.ErrorText.Render(c.text(f.err)))
	}
	lines := []string{c.styles.Muted.Render("no arguments: ctrl+s sends")}
	if f.view.Len() > 0 {
		f.view.SetSize(0, max(1, height-1-len(foot)))
		lines = strings.Split(f.view.View(), "\n")
	}
	return contentBox(c, c.quote(p.server+" · "+f.title), append(lines, foot...), width, height)
}
