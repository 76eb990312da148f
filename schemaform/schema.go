package schemaform

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// maxDepth bounds how deeply objects and arrays nest in a form; deeper
// values are edited as raw JSON.
const maxDepth = 8

// A Kind is how a field is edited.
type Kind int

const (
	Text    Kind = iota // a string, typed
	Number              // a number, typed
	Integer             // an integer, typed
	Bool                // a checkbox
	Enum                // a choice among Options
	Object              // nested fields
	Array               // a list of items, each a field built from the items schema
	Raw                 // JSON typed as it is: what the form cannot edit otherwise
)

// A Field is one property of an object schema, or one item of an array.
type Field struct {
	// Name is the property's name; an item's is its index.
	Name        string
	Title       string
	Description string
	Kind        Kind
	Required    bool
	// Options are an enum's values (JSON), Labels their titles where the
	// schema gives them (enumNames, or oneOf's const and title), else "".
	Options []json.RawMessage
	Labels  []string
	// Default is the schema's default, as written.
	Default json.RawMessage

	// Text is what is typed in a Text, Number, Integer or Raw field.
	Text string
	// On is a Bool's value, Choice an Enum's index in Options (-1: none).
	On     bool
	Choice int
	// Set says the field is in the value: an optional field is left out
	// until it is given one (see Present).
	Set bool
	// Fields are an Object's properties, in the schema's order; Extra the
	// members of a value filled in that the schema does not name, kept as
	// they were.
	Fields []*Field
	Extra  []jsonx.Field
	// Items are an Array's items.
	Items []*Field

	item  json.RawMessage // an Array's items schema
	depth int
}

// A Form is the fields of an object schema.
type Form struct {
	Root *Field
	// placeholders start required fields from a placeholder of their type
	// (0, false, the first option), as a JSON skeleton does.
	placeholders bool
}

// New builds the form of an object schema (an input schema, or an
// elicitation's requested schema), each default filled in. placeholders
// gives required fields without a default a value of their type to start
// from ("" , 0, false, the first option, an empty array); without it they
// start empty, and Missing names them. A schema that is not an object
// gives a form with no fields.
func New(schema json.RawMessage, placeholders bool) *Form {
	f := &Form{placeholders: placeholders}
	root := &Field{Kind: Object, Required: true, Set: true, Choice: -1}
	s, ok := jsonx.Fields(bytes.TrimSpace(schema))
	if d, err := jsonx.Depth(schema); ok && err == nil && d <= 4*maxDepth+8 {
		if t := schemaType(s); t == "" || t == "object" {
			root.Fields = f.properties(s, 1)
		}
	}
	f.Root = root
	return f
}

// properties builds the fields of an object schema's properties.
func (f *Form) properties(s []jsonx.Field, depth int) []*Field {
	props, _ := jsonx.Fields(member(s, "properties"))
	var required []string
	_ = json.Unmarshal(member(s, "required"), &required)
	var fields []*Field
	for _, p := range props {
		fields = append(fields, f.field(p.Name, p.Value, slices.Contains(required, p.Name), depth))
	}
	return fields
}

// field builds the field of one property (or item) whose schema is raw.
func (f *Form) field(name string, raw []byte, required bool, depth int) *Field {
	s, _ := jsonx.Fields(raw)
	fd := &Field{Name: name, Required: required, Choice: -1, depth: depth}
	_ = json.Unmarshal(member(s, "title"), &fd.Title)
	_ = json.Unmarshal(member(s, "description"), &fd.Description)
	if fd.Title == "" {
		fd.Title = name
	}
	fd.Default = member(s, "default")
	fd.Kind = kindOf(s, depth)
	switch fd.Kind {
	case Enum:
		fd.Options, fd.Labels = options(s)
	case Object:
		fd.Fields = f.properties(s, depth+1)
	case Array:
		fd.item = member(s, "items")
	}
	fd.reset(f.placeholders)
	return fd
}

// kindOf is how a property whose schema is s is edited.
func kindOf(s []jsonx.Field, depth int) Kind {
	if o, _ := options(s); len(o) > 0 {
		return Enum
	}
	t := schemaType(s)
	switch {
	case t == "string":
		return Text
	case t == "number":
		return Number
	case t == "integer":
		return Integer
	case t == "boolean":
		return Bool
	case depth >= maxDepth:
		return Raw
	case t == "object" || t == "" && member(s, "properties") != nil:
		return Object
	case t == "array" || t == "" && member(s, "items") != nil:
		if items := bytes.TrimSpace(member(s, "items")); len(items) == 0 || items[0] == '{' {
			return Array
		}
	}
	return Raw
}

// options are an enum's values and titles: oneOf's const and title
// (SEP-1330), else enum and enumNames, else a const.
func options(s []jsonx.Field) (values []json.RawMessage, labels []string) {
	if alts, ok := jsonx.Elements(member(s, "oneOf")); ok && len(alts) > 0 {
		for _, a := range alts {
			af, _ := jsonx.Fields(a)
			c := member(af, "const")
			if c == nil {
				return nil, nil
			}
			var title string
			_ = json.Unmarshal(member(af, "title"), &title)
			values, labels = append(values, json.RawMessage(c)), append(labels, title)
		}
		return values, labels
	}
	if enum, ok := jsonx.Elements(member(s, "enum")); ok && len(enum) > 0 {
		var names []string
		_ = json.Unmarshal(member(s, "enumNames"), &names)
		for i, v := range enum {
			label := ""
			if i < len(names) {
				label = names[i]
			}
			values, labels = append(values, v), append(labels, label)
		}
		return values, labels
	}
	if c := member(s, "const"); c != nil {
		return []json.RawMessage{c}, []string{""}
	}
	return nil, nil
}

// reset empties the field and gives it its default, or with placeholders
// a required field a value of its type.
func (fd *Field) reset(placeholders bool) {
	fd.Text, fd.On, fd.Choice, fd.Set, fd.Items, fd.Extra = "", false, -1, false, nil, nil
	for _, c := range fd.Fields {
		c.reset(placeholders)
	}
	if len(fd.Default) > 0 && fd.fill(fd.Default) == nil {
		return
	}
	if !fd.Required || !placeholders {
		fd.Set = fd.Required && fd.Kind == Object
		return
	}
	fd.Set = true
	switch fd.Kind {
	case Number, Integer:
		fd.Text = "0"
	case Enum:
		fd.Choice = 0
	case Raw:
		fd.Set = false
	}
}

// member returns the value of an object's member, or nil.
func member(obj []jsonx.Field, name string) []byte {
	for _, f := range obj {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// schemaType is the schema's type: the string, or the first entry of a
// list that is not "null"; "" when absent.
func schemaType(s []jsonx.Field) string {
	t := bytes.TrimSpace(member(s, "type"))
	var one string
	if json.Unmarshal(t, &one) == nil {
		return one
	}
	var list []string
	_ = json.Unmarshal(t, &list)
	for _, v := range list {
		if v != "null" {
			return v
		}
	}
	return ""
}
