package schemaform

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// A Hint describes one property for the JSON mode: where it goes, its
// type, whether it is required, its description and its choices.
type Hint struct {
	// Pointer is the property's JSON pointer; an array's items are "-".
	Pointer     string
	Type        string
	Required    bool
	Description string
	// Choices are an enum's values as text, each with its title, if any:
	// `"eco" (Economy)`.
	Choices []string
}

// Hints lists the form's properties, nested ones after their object's,
// an array's item properties under "/name/-".
func (f *Form) Hints() []Hint {
	var out []Hint
	var walk func(fields []*Field, at string)
	walk = func(fields []*Field, at string) {
		for _, c := range fields {
			p := at + "/" + escape(c.Name)
			h := Hint{Pointer: p, Type: c.Kind.String(), Required: c.Required, Description: c.Description}
			for i, o := range c.Options {
				choice := string(bytes.TrimSpace(o))
				if c.Labels[i] != "" {
					choice += " (" + c.Labels[i] + ")"
				}
				h.Choices = append(h.Choices, choice)
			}
			switch c.Kind {
			case Array:
				it := (&Form{}).field("-", c.item, true, c.depth+1)
				h.Type = "array of " + it.Kind.String()
				out = append(out, h)
				if it.Kind == Object {
					walk(it.Fields, p+"/-")
				}
				continue
			case Enum:
				h.Type = "one of"
			case Multi:
				h.Type = "any of"
			}
			out = append(out, h)
			if c.Kind == Object {
				walk(c.Fields, p)
			}
		}
	}
	walk(f.Root.Fields, "")
	return out
}

// String names the JSON type a kind of field gives.
func (k Kind) String() string {
	switch k {
	case Text:
		return "string"
	case Number:
		return "number"
	case Integer:
		return "integer"
	case Bool:
		return "boolean"
	case Enum:
		return "enum"
	case Object:
		return "object"
	case Array, Multi:
		return "array"
	}
	return "JSON"
}

// Shown is an Enum's choice as text (its title and value), or "" for none.
func (fd *Field) Shown() string {
	if fd.Kind != Enum || fd.Choice < 0 || fd.Choice >= len(fd.Options) {
		return ""
	}
	return fd.Option(fd.Choice)
}

// Option is option i as text: its title and value, or its value.
func (fd *Field) Option(i int) string {
	v := string(bytes.TrimSpace(fd.Options[i]))
	var s string
	if json.Unmarshal(fd.Options[i], &s) == nil {
		v = s
	}
	if t := fd.Labels[i]; t != "" {
		return t + " (" + v + ")"
	}
	return v
}

// Path is the field's title as a form lists it: an item's is "#n".
func (fd *Field) Path() string {
	if _, err := strconv.Atoi(fd.Name); err == nil && fd.Title == fd.Name {
		return "#" + fd.Name
	}
	return fd.Title
}
