// Package form is the component that draws a schemaform.Form and edits
// it, one row a field: the argument editor's form mode, an elicitation's
// form, and a prompt's or a resource template's arguments are each one
// form.Model. It owns its rows, its focus and the line typed in; its owner
// gives it its keys and styles (Config), its size (SetSize), and asks it
// for its help (ShortHelp, FullHelp). It reads nothing of the Model and
// imports ui/kit, never ui.
package form
