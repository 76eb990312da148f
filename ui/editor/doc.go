// Package editor is the argument editor: the arguments of one call, edited
// two ways over one schemaform.Form, as JSON text (a textarea, with each
// property's hints under it) and as a form (ui/form), and checked against
// the tool's input schema (argcheck) before they are sent. It owns the
// text, the mode, what is wrong with the arguments and the question
// asked before typed arguments are thrown away; its owner gives it its
// keys, styles and redactor (Config), its size (SetSize), says whether a
// call is running (SetCalling), and after each Update asks whether it
// sent arguments (Sent) or was closed (Closed), then places the call.
// Target says what a call is placed under, with or without an editor (a
// call placed again from the history has none). It reads nothing of the
// Model and imports ui/kit and ui/form, never ui.
package editor
