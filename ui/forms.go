package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcplens/mcplens/schemaform"
	"github.com/mcplens/mcplens/ui/form"
)

// A formView is the form component (ui/form) as the argument editor, an
// elicitation and the resources view hold it.
type formView = form.Model

// newFormView returns the form of f, its fields moved between with next
// and prev, drawn with the interface's styles and masked with its
// redactor.
func newFormView(e *env, f *schemaform.Form, next, prev key.Binding) *formView {
	return form.New(formConfig(e, next, prev), f)
}

// formConfig gives a form the interface's keys, its fields moved between
// with next and prev, its styles and its redactor.
func formConfig(e *env, next, prev key.Binding) form.Config {
	k := e.c.keys
	return form.Config{
		Keys: form.KeyMap{Next: next, Prev: prev, Toggle: k.Toggle, Choose: k.Choose, AddItem: k.AddItem, RemoveItem: k.RemoveItem},
		Styles: func() form.Styles {
			s := e.c.styles
			return form.Styles{Title: s.PolicyName, Muted: s.Muted}
		},
		Redact: e.c.redact,
	}
}
