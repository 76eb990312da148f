package schemaform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// Value is the form's JSON object: each field present (see Present) with
// its value, and the extra members of what was filled in. The error names
// the first field whose text is not of its kind.
func (f *Form) Value() (json.RawMessage, error) {
	var b bytes.Buffer
	if err := f.Root.write(&b, ""); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Present reports whether the field is in the value: a required text, an
// optional one once typed in, anything else once set.
func (fd *Field) Present() bool {
	switch fd.Kind {
	case Text:
		return fd.Set || fd.Text != ""
	case Number, Integer, Raw:
		return strings.TrimSpace(fd.Text) != ""
	case Enum:
		return fd.Choice >= 0 && fd.Choice < len(fd.Options)
	}
	return fd.Set
}

// write writes the field's value to b; at is its JSON pointer.
func (fd *Field) write(b *bytes.Buffer, at string) error {
	switch fd.Kind {
	case Text:
		b.Write(quote(fd.Text))
	case Number, Integer:
		t := strings.TrimSpace(fd.Text)
		if !isNumber(t) {
			return fmt.Errorf("%s: %q is not a number", fd.where(at), t)
		}
		if n, err := strconv.ParseFloat(t, 64); fd.Kind == Integer && (err != nil || n != float64(int64(n))) {
			return fmt.Errorf("%s: %q is not an integer", fd.where(at), t)
		}
		b.WriteString(t)
	case Bool:
		b.WriteString(strconv.FormatBool(fd.On))
	case Enum:
		b.Write(fd.Options[fd.Choice])
	case Multi:
		b.WriteByte('[')
		n := 0
		for i, on := range fd.Picked {
			if !on {
				continue
			}
			if n++; n > 1 {
				b.WriteByte(',')
			}
			b.Write(bytes.TrimSpace(fd.Options[i]))
		}
		b.WriteByte(']')
	case Raw:
		t := strings.TrimSpace(fd.Text)
		if !json.Valid([]byte(t)) {
			return fmt.Errorf("%s: %q is not JSON", fd.where(at), t)
		}
		b.WriteString(t)
	case Object:
		b.WriteByte('{')
		n := 0
		for _, c := range fd.Fields {
			if !c.Present() {
				continue
			}
			if n++; n > 1 {
				b.WriteByte(',')
			}
			b.Write(quote(c.Name))
			b.WriteByte(':')
			if err := c.write(b, at+"/"+escape(c.Name)); err != nil {
				return err
			}
		}
		for _, x := range fd.Extra {
			if n++; n > 1 {
				b.WriteByte(',')
			}
			b.Write(quote(x.Name))
			b.WriteByte(':')
			b.Write(bytes.TrimSpace(x.Value))
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i, it := range fd.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if !it.Present() {
				b.WriteString("null")
				continue
			}
			if err := it.write(b, at+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	}
	return nil
}

// where names the field in an error: its title and pointer.
func (fd *Field) where(at string) string {
	if fd.Title != "" && "/"+escape(fd.Title) != at {
		return fmt.Sprintf("%s (%s)", fd.Title, at)
	}
	return at
}

// Fill sets the form to the JSON object v: each field named gets its
// value, each field absent is cleared (no default), and members the schema
// does not name are kept as they are. A value that does not fit its
// field's kind turns the field into raw JSON, so nothing typed is lost.
func (f *Form) Fill(v json.RawMessage) error {
	v = bytes.TrimSpace(v)
	if _, ok := jsonx.Fields(v); !ok || !json.Valid(v) {
		return fmt.Errorf("the arguments are %s, not an object", kindName(v))
	}
	return f.Root.fill(v)
}

// fill sets the field to v, a valid JSON value.
func (fd *Field) fill(v []byte) error {
	v = bytes.TrimSpace(v)
	fd.Set = true
	switch fd.Kind {
	case Text:
		if json.Unmarshal(v, &fd.Text) == nil && v[0] == '"' {
			return nil
		}
	case Number, Integer:
		if isNumber(string(v)) {
			fd.Text = string(v)
			return nil
		}
	case Bool:
		if string(v) == "true" || string(v) == "false" {
			fd.On = string(v) == "true"
			return nil
		}
	case Enum:
		for i, o := range fd.Options {
			if same(o, v) {
				fd.Choice = i
				return nil
			}
		}
	case Object:
		if members, ok := jsonx.Fields(v); ok && v[0] == '{' {
			fd.Extra = nil
			for _, c := range fd.Fields {
				c.clear()
			}
			for _, m := range members {
				if c := fd.child(m.Name); c != nil {
					_ = c.fill(m.Value)
				} else {
					fd.Extra = append(fd.Extra, m)
				}
			}
			return nil
		}
	case Multi:
		if picked, ok := fd.picks(v); ok {
			fd.Picked = picked
			return nil
		}
	case Array:
		if elems, ok := jsonx.Elements(v); ok {
			fd.Items = nil
			for _, e := range elems {
				_ = fd.AddItem().fill(e)
			}
			return nil
		}
	}
	if fd.Kind != Raw {
		*fd = Field{Name: fd.Name, Title: fd.Title, Description: fd.Description, Required: fd.Required,
			Default: fd.Default, Kind: Raw, Choice: -1, depth: fd.depth}
	}
	fd.Text, fd.Set = string(v), true
	return nil
}

// picks are the Options an array v holds, when it holds only options,
// each once, in their order (else a form would not give v back).
func (fd *Field) picks(v []byte) ([]bool, bool) {
	elems, ok := jsonx.Elements(v)
	if !ok {
		return nil, false
	}
	picked := make([]bool, len(fd.Options))
	next := 0
	for _, e := range elems {
		i := next
		for i < len(fd.Options) && !same(fd.Options[i], e) {
			i++
		}
		if i == len(fd.Options) {
			return nil, false
		}
		picked[i], next = true, i+1
	}
	return picked, true
}

// clear leaves the field out of the value, as a value without it says.
func (fd *Field) clear() {
	fd.Text, fd.On, fd.Choice, fd.Set, fd.Items, fd.Extra = "", false, -1, false, nil, nil
	fd.Picked = make([]bool, len(fd.Options))
	for _, c := range fd.Fields {
		c.clear()
	}
}

// child is the property named name.
func (fd *Field) child(name string) *Field {
	for _, c := range fd.Fields {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// AddItem appends an item built from an Array's items schema (its
// default, or a placeholder of its type) and returns it.
func (fd *Field) AddItem() *Field {
	f := &Form{placeholders: true}
	it := f.field(strconv.Itoa(len(fd.Items)), fd.item, true, fd.depth+1)
	fd.Items = append(fd.Items, it)
	fd.Set = true
	return it
}

// RemoveItem removes an Array's item i.
func (fd *Field) RemoveItem(i int) {
	if i < 0 || i >= len(fd.Items) {
		return
	}
	fd.Items = append(fd.Items[:i], fd.Items[i+1:]...)
	for j, it := range fd.Items {
		it.Name, it.Title = strconv.Itoa(j), strconv.Itoa(j)
	}
}

// Missing names the required fields left out, as "Title is required", in
// form order.
func (f *Form) Missing() []string {
	var out []string
	var walk func(fd *Field)
	walk = func(fd *Field) {
		for _, c := range fd.Fields {
			switch {
			case c.Required && (!c.Present() || c.Kind == Text && c.Text == ""):
				out = append(out, c.Title+" is required")
			case c.Kind == Object && c.Present():
				walk(c)
			}
		}
	}
	walk(f.Root)
	return out
}

// isNumber reports whether t is one JSON number.
func isNumber(t string) bool {
	if t == "" || !json.Valid([]byte(t)) {
		return false
	}
	c := t[0]
	return c == '-' || c >= '0' && c <= '9'
}

// same reports whether two JSON values mean the same.
func same(a, b []byte) bool {
	ca, err1 := jsonx.Canonical(a)
	cb, err2 := jsonx.Canonical(b)
	return err1 == nil && err2 == nil && bytes.Equal(ca, cb)
}

// kindName is the kind of a JSON value, for a message.
func kindName(v []byte) string {
	switch {
	case len(v) == 0:
		return "empty"
	case v[0] == '[':
		return "an array"
	case v[0] == '"':
		return "a string"
	case v[0] == 't' || v[0] == 'f':
		return "a boolean"
	case v[0] == 'n':
		return "null"
	case v[0] == '{':
		return "not JSON"
	}
	return "a number"
}

// escape is a JSON pointer token (RFC 6901).
func escape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
