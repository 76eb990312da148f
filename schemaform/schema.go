package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
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
	Multi               // a set of Options picked: an array of distinct enum values (SEP-1330's multi-select)
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
	// On is a Bool's value, Choice an Enum's index in Options (-1: none),
	// Picked the Options of a Multi that are in its array.
	On     bool
	Choice int
	Picked []bool
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
	if d, err := jsonx.Depth(schema); err == nil && d <= 4*maxDepth+8 {
		if k, ok := read(schema); ok && (k.typ() == "" || k.typ() == "object") {
			root.Fields = f.properties(k, 1)
		}
	}
	f.Root = root
	return f
}

// keywords are what a form reads of one schema.
type keywords struct {
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Default     json.RawMessage   `json:"default"`
	Const       json.RawMessage   `json:"const"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []json.RawMessage `json:"oneOf"`
	AnyOf       []json.RawMessage `json:"anyOf"`
	Properties  json.RawMessage   `json:"properties"`
	Items       json.RawMessage   `json:"items"`
	Required    []string          `json:"required"`
}

// read decodes the keywords of a schema, reporting whether it is an
// object (a schema of `true` or junk has none).
func read(schema []byte) (keywords, bool) {
	var k keywords
	schema = bytes.TrimSpace(schema)
	if len(schema) == 0 || schema[0] != '{' {
		return k, false
	}
	// A keyword of an unexpected type (a title that is a number) is left
	// out; encoding/json goes on with the others.
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(schema, &k); err != nil && !errors.As(err, &te) {
		return keywords{}, false
	}
	return k, true
}

// typ is the schema's type: the string, or the first entry of a list that
// is not "null"; "" when absent.
func (k keywords) typ() string {
	var one string
	if json.Unmarshal(k.Type, &one) == nil {
		return one
	}
	var list []string
	_ = json.Unmarshal(k.Type, &list)
	for _, v := range list {
		if v != "null" {
			return v
		}
	}
	return ""
}

// properties builds the fields of an object schema's properties, in the
// schema's order.
func (f *Form) properties(k keywords, depth int) []*Field {
	props, _ := jsonx.Fields(k.Properties)
	var fields []*Field
	for _, p := range props {
		fields = append(fields, f.field(p.Name, p.Value, slices.Contains(k.Required, p.Name), depth))
	}
	return fields
}

// field builds the field of one property (or item) whose schema is raw.
func (f *Form) field(name string, raw []byte, required bool, depth int) *Field {
	k, _ := read(raw)
	fd := &Field{Name: name, Title: k.Title, Description: k.Description, Required: required, Choice: -1, depth: depth}
	if fd.Title == "" {
		fd.Title = name
	}
	fd.Default = k.Default
	fd.Kind = k.kind(depth)
	switch fd.Kind {
	case Enum:
		fd.Options, fd.Labels = k.options()
	case Multi:
		items, _ := read(k.Items)
		fd.Options, fd.Labels = items.options()
		fd.Picked = make([]bool, len(fd.Options))
	case Object:
		fd.Fields = f.properties(k, depth+1)
	case Array:
		fd.item = k.Items
	}
	fd.reset(f.placeholders)
	return fd
}

// kind is how a property whose schema has keywords k is edited.
func (k keywords) kind(depth int) Kind {
	if o, _ := k.options(); len(o) > 0 {
		return Enum
	}
	t := k.typ()
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
	case t == "object" || t == "" && k.Properties != nil:
		return Object
	case t == "array" || t == "" && k.Items != nil:
		if items, _ := read(k.Items); len(items.Enum)+len(items.OneOf)+len(items.AnyOf) > 0 {
			if o, _ := items.options(); len(o) > 0 {
				return Multi
			}
		}
		if items := bytes.TrimSpace(k.Items); len(items) == 0 || items[0] == '{' {
			return Array
		}
	}
	return Raw
}

// options are an enum's values and titles: oneOf's (or a multi-select's
// items' anyOf's) const and title (SEP-1330), else enum and enumNames,
// else a const.
func (k keywords) options() (values []json.RawMessage, labels []string) {
	if alts := slices.Concat(k.OneOf, k.AnyOf); len(alts) > 0 {
		for _, a := range alts {
			alt, _ := read(a)
			if alt.Const == nil {
				return nil, nil
			}
			values, labels = append(values, alt.Const), append(labels, alt.Title)
		}
		return values, labels
	}
	for i, v := range k.Enum {
		label := ""
		if i < len(k.EnumNames) {
			label = k.EnumNames[i]
		}
		values, labels = append(values, v), append(labels, label)
	}
	if len(values) == 0 && k.Const != nil {
		return []json.RawMessage{k.Const}, []string{""}
	}
	return values, labels
}

// reset empties the field and gives it its default, or with placeholders
// a required field a value of its type.
func (fd *Field) reset(placeholders bool) {
	fd.clear()
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
