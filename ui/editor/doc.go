// Package editor is the argument editor: the arguments of one call,
// edited as JSON text or as a form (ui/form) over one schemaform.Form,
// checked against the tool's input schema (argcheck) before they are
// sent. Target says what a call is placed under, with or without an
// editor.
package editor
