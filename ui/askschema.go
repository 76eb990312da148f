package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
)

// A fieldKind is how a form field is edited.
type fieldKind int

const (
	fieldText fieldKind = iota
	fieldNumber
	fieldInteger
	fieldBool
	fieldEnum
)

// A formField is one property of an elicitation's requested schema, as a
// form edits it: typed text, a checkbox, or a choice among options.
type formField struct {
	name, title, description string
	kind                     fieldKind
	required                 bool
	// options are an enum's values and labels their titles, when the
	// schema gives them (enumNames, or oneOf's const/title, SEP-1330).
	options, labels []string
	choice          int
	on              bool
	input           textinput.Model
}

// property is what mcplens reads of one property of a requested schema.
type property struct {
	Type        string            `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Default     json.RawMessage   `json:"default"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []struct {
		Const json.RawMessage `json:"const"`
		Title string          `json:"title"`
	} `json:"oneOf"`
}

// formFields builds the fields of a requested schema, each default filled
// in (SEP-1034): the required ones first, as required lists them, then the
// others in the order they arrive (the server's own order of properties
// does not survive mcp-go's decoding of the request).
func formFields(schema json.RawMessage) []formField {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var props map[string]property
	if json.Unmarshal(s.Properties, &props) != nil {
		return nil
	}
	var fields []formField
	for _, name := range objectKeys(s.Properties) {
		p := props[name]
		f := formField{name: name, title: p.Title, description: p.Description, required: slices.Contains(s.Required, name)}
		if f.title == "" {
			f.title = name
		}
		f.input = textinput.New()
		f.input.Prompt = ""
		f.input.SetWidth(40)
		switch {
		case len(p.OneOf) > 0:
			f.kind = fieldEnum
			for _, o := range p.OneOf {
				f.options = append(f.options, scalar(o.Const))
				f.labels = append(f.labels, o.Title)
			}
		case len(p.Enum) > 0:
			f.kind = fieldEnum
			for i, v := range p.Enum {
				f.options = append(f.options, scalar(v))
				label := ""
				if i < len(p.EnumNames) {
					label = p.EnumNames[i]
				}
				f.labels = append(f.labels, label)
			}
		case p.Type == "boolean":
			f.kind = fieldBool
		case p.Type == "number":
			f.kind = fieldNumber
		case p.Type == "integer":
			f.kind = fieldInteger
		}
		if len(p.Default) > 0 {
			f.setDefault(scalar(p.Default))
		}
		fields = append(fields, f)
	}
	rank := func(f formField) int {
		if i := slices.Index(s.Required, f.name); i >= 0 {
			return i
		}
		return len(s.Required)
	}
	slices.SortStableFunc(fields, func(a, b formField) int { return rank(a) - rank(b) })
	return fields
}

func (f *formField) setDefault(v string) {
	switch f.kind {
	case fieldBool:
		f.on = v == "true"
	case fieldEnum:
		f.choice = max(0, slices.Index(f.options, v))
	default:
		f.input.SetValue(v)
	}
}

// value is the field's answer, or an error saying why it has none; ok is
// false for an optional field left empty.
func (f *formField) value() (v any, ok bool, err error) {
	switch f.kind {
	case fieldBool:
		return f.on, true, nil
	case fieldEnum:
		if len(f.options) == 0 {
			return nil, false, nil
		}
		return f.options[f.choice], true, nil
	}
	text := strings.TrimSpace(f.input.Value())
	if text == "" {
		if f.required {
			return nil, false, fmt.Errorf("%s is required", f.title)
		}
		return nil, false, nil
	}
	switch f.kind {
	case fieldNumber:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %q is not a number", f.title, text)
		}
		return n, true, nil
	case fieldInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %q is not an integer", f.title, text)
		}
		return n, true, nil
	}
	return text, true, nil
}

// shown is the field's current value as the form draws it.
func (f *formField) shown() string {
	switch f.kind {
	case fieldBool:
		if f.on {
			return "[x]"
		}
		return "[ ]"
	case fieldEnum:
		if len(f.options) == 0 {
			return ""
		}
		label := f.options[f.choice]
		if t := f.labels[f.choice]; t != "" {
			label = t + " (" + label + ")"
		}
		return fmt.Sprintf("‹ %s ›  %d/%d", label, f.choice+1, len(f.options))
	}
	return f.input.View()
}

// scalar is a JSON scalar as text: a string unquoted, others as written.
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

// objectKeys lists the keys of a JSON object in the order written.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, fmt.Sprint(t))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}
