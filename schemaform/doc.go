// Package schemaform turns a JSON Schema into a form and the form into
// JSON: the fields of an object schema (text, numbers, booleans, enums
// with their titles, nested objects, arrays whose items are built from
// "items", and raw JSON for what a form cannot edit), each with its title,
// description, required mark and default. The argument editor's form
// mode and its JSON mode start from the same Form (the JSON mode's
// skeleton is the empty form's value), and an elicitation's form is one
// too, so what a form sends is what the JSON it shows says.
//
// It has no terminal in it: the interface draws a Form and edits its
// fields; here are only the schema, the values and their JSON. It imports
// the standard library, internal/jsonx and model (to escape what the
// terminal must not be sent), and must not import the interface, the
// loader or anything that talks to a server.
//
//	f := schemaform.New(tool.InputSchema, true)
//	text := schemaform.Format(f.Value()) // the JSON mode's skeleton
//	err := f.Fill(json.RawMessage(`{"city":"Lyon"}`))
//	args, err := f.Value()
package schemaform
