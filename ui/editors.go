package ui

import (
	"encoding/json"

	"github.com/mcplens/mcplens/ui/editor"
)

// An editorView is the argument editor (ui/editor) as the root holds it
// (invoke.go).
type editorView = editor.Model

// newEditor returns the editor of a call under t to a tool whose input
// schema is schema, on args when given, with the interface's keys, styles
// and redactor, fitted to the screen.
func newEditor(e *env, t editor.Target, schema, args json.RawMessage) *editorView {
	k := e.c.keys
	ed := editor.New(editor.Config{
		Keys: editor.KeyMap{Send: k.Send, Mode: k.Mode, Cancel: k.Cancel, Yes: k.Yes},
		Styles: func() editor.Styles {
			s := e.c.styles
			return editor.Styles{Header: s.Header, Name: s.RenamedText, Muted: s.Muted, In: s.In,
				Warn: s.WarnText, Error: s.ErrorText, Box: s.box()}
		},
		Redact: e.c.redact,
		Form:   formConfig(e, k.FormNext, k.FormPrev),
	}, t, schema, args)
	ed.SetSize(e.c.width, e.c.height)
	return ed
}
