package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
)

// Canonical returns the JSON value raw in the JSON Canonicalization Scheme
// of RFC 8785: no insignificant whitespace, every object's members sorted
// by name (as UTF-16 code units), strings in their shortest escaping (no
// HTML escaping), numbers as ECMAScript writes a double (1.50 is 1.5, 1e3
// is 1000, an integer beyond 2⁵³ loses precision). Two values that mean the
// same have the same canonical form, so its hash can be compared.
//
// RFC 8785 has no form for an object that repeats a name: such a name keeps
// its last value, as JSON decoders read it. Invalid UTF-8 is replaced by
// U+FFFD, as decoders do.
func Canonical(raw []byte) ([]byte, error) {
	v := jsontext.Value(bytes.Clone(raw))
	err := v.Canonicalize(jsontext.AllowInvalidUTF8(true))
	if errors.Is(err, jsontext.ErrDuplicateName) {
		v, err = lastNamesWin(raw)
		if err == nil {
			err = v.Canonicalize()
		}
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// lastNamesWin rewrites raw with each repeated name of an object reduced to
// its last value, by decoding it as encoding/json does.
func lastNamesWin(raw []byte) (jsontext.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// Indent returns the JSON value raw indented by two spaces per level, one
// member or element a line, with strings and numbers as written.
func Indent(raw []byte) ([]byte, error) {
	v := jsontext.Value(bytes.Clone(raw))
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return nil, err
	}
	return v, nil
}
