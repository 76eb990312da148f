// Package argcheck checks a tool call's arguments before they are sent:
// that they are JSON (a syntax error says its line and column) and that
// they satisfy the tool's input schema (each violation named by the JSON
// pointer of the value at fault), every format the schema library knows
// (date, date-time, email, uri…) asserted. The interface's argument editor and the
// headless call use it alike, so both refuse the same arguments for the
// same reasons.
//
// It owns no I/O: a schema's references are resolved inside the schema
// only (and against the JSON Schema meta-schemas), never from a file or
// the network. It imports the standard library, internal/jsonx and
// santhosh-tekuri/jsonschema/v6, and must not import the loader, the
// interface or anything that talks to a server.
//
//	problems, err := argcheck.Validate(tool.InputSchema, []byte(`{"a":"x"}`))
//	// err is a *SyntaxError for arguments that are not JSON, or an error
//	// for a schema that does not compile; problems list each violation:
//	// "/a: got string, want integer"
package argcheck
