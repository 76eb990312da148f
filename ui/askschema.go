package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/mcplens/mcplens/schemaform"
)

// elicitationForm builds the form of an elicitation's requested schema,
// each default filled in (SEP-1034) and required fields left empty until
// typed: the required ones first, as required lists them, then the others
// in the order they arrive (the server's own order of properties does not
// survive mcp-go's decoding of the request).
func elicitationForm(schema json.RawMessage) *schemaform.Form {
	f := schemaform.New(schema, false)
	var s struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	rank := func(fd *schemaform.Field) int {
		if i := slices.Index(s.Required, fd.Name); i >= 0 {
			return i
		}
		return len(s.Required)
	}
	slices.SortStableFunc(f.Root.Fields, func(a, b *schemaform.Field) int { return rank(a) - rank(b) })
	return f
}

// content is an accepted form's content, or why it cannot be accepted: a
// required field left empty, or a field whose text is not of its type.
func content(f *schemaform.Form) (map[string]any, error) {
	if missing := f.Missing(); len(missing) > 0 {
		return nil, errors.New(missing[0])
	}
	v, err := f.Value()
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber() // numbers as typed, not through a float
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}
