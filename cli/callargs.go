package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// readArgs reads --args: JSON, @FILE or @- for stdin, at most max bytes
// of a file or of stdin (the document limit; a file through
// bounded.ReadFile, so a FIFO or a device is refused). It must be an
// object; a syntax error says where (line and column).
func readArgs(v string, stdin io.Reader, max int64) (json.RawMessage, error) {
	data, from := []byte(v), "--args"
	if file, ok := strings.CutPrefix(v, "@"); ok {
		var err error
		if file == "-" {
			from = "--args from stdin"
			if data, err = io.ReadAll(io.LimitReader(stdin, max+1)); err == nil && int64(len(data)) > max {
				err = &bounded.LimitError{Limit: "document", Max: max, What: "stdin"}
			}
		} else {
			data, err = bounded.ReadFile(file, max, "document")
			from = fmt.Sprintf("--args file %s", file)
		}
		if err != nil {
			return nil, fmt.Errorf("reading --args: %w", err)
		}
	}
	data = bytes.TrimSpace(data)
	if err := argcheck.Syntax(data); err != nil {
		return nil, fmt.Errorf("%s is not a JSON object: %s", from, model.Sanitize(err.Error()))
	}
	var obj any
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%s is not a JSON object: %s", from, model.Sanitize(clip(string(data), 80)))
	}
	if _, ok := obj.(map[string]any); !ok {
		return nil, fmt.Errorf("%s is not a JSON object: %s", from, model.Sanitize(clip(string(data), 80)))
	}
	return data, nil
}

// An argList is --arg, repeatable: NAME=VALUE, the value typed by the
// tool's input schema once the tool is known (withArgs).
type argList []string

func (a *argList) String() string { return strings.Join(*a, " ") }

func (a *argList) Set(v string) error {
	if name, _, ok := strings.Cut(v, "="); !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE")
	}
	*a = append(*a, v)
	return nil
}

// withArgs returns the arguments of --args with each --arg set in them,
// its value typed by the property of that name in schema (the tool's
// inputSchema): an integer, number, boolean or null as such, an object or
// array as JSON, else a string; a value of a property the schema does not
// type is JSON when it reads as a number, boolean, null, object or array,
// else a string. Members of --args keep their order and bytes; those --arg
// sets are replaced in place, the others appended.
func withArgs(args json.RawMessage, set argList, schema json.RawMessage) (json.RawMessage, error) {
	if len(set) == 0 {
		return args, nil
	}
	fields, _ := jsonx.Fields(args)
	for _, kv := range set {
		name, text, _ := strings.Cut(kv, "=")
		value, err := coerce(text, propertyTypes(schema, name))
		if err != nil {
			return nil, fmt.Errorf("--arg %s: %v", model.Sanitize(clip(kv, 80)), err)
		}
		if i := slices.IndexFunc(fields, func(f jsonx.Field) bool { return f.Name == name }); i >= 0 {
			fields[i].Value = value
		} else {
			fields = append(fields, jsonx.Field{Name: name, Value: value})
		}
	}
	return object(fields), nil
}

// propertyTypes are the types the input schema gives the property name
// ("type": "integer" or ["string", "null"]), nil when it gives none.
func propertyTypes(schema json.RawMessage, name string) []string {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	raw := s.Properties[name].Type
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

// coerce types the text of an --arg by the types its property allows,
// trying them in this order: null, integer, number, boolean, object,
// array, string. With no types, any JSON but a string is taken as JSON.
func coerce(text string, types []string) (json.RawMessage, error) {
	if len(types) == 0 {
		types = []string{"null", "number", "boolean", "object", "array", "string"}
	}
	allows := func(t string) bool { return slices.Contains(types, t) }
	t := strings.TrimSpace(text)
	switch {
	case allows("null") && t == "null":
		return json.RawMessage("null"), nil
	case allows("integer") && isInteger(t):
		return json.RawMessage(t), nil
	case allows("number") && isNumber(t):
		return json.RawMessage(t), nil
	case allows("boolean") && (t == "true" || t == "false"):
		return json.RawMessage(t), nil
	case allows("object") && strings.HasPrefix(t, "{") && json.Valid([]byte(t)):
		return json.RawMessage(t), nil
	case allows("array") && strings.HasPrefix(t, "[") && json.Valid([]byte(t)):
		return json.RawMessage(t), nil
	case allows("string"):
		s, _ := json.Marshal(text)
		return s, nil
	}
	if err := argcheck.Syntax([]byte(t)); (allows("object") || allows("array")) && err != nil {
		return nil, fmt.Errorf("the schema wants %s, and the value is not JSON: %v", strings.Join(types, " or "), err)
	}
	return nil, fmt.Errorf("the schema wants %s", strings.Join(types, " or "))
}

// isInteger reports whether t is a JSON number without a fraction.
func isInteger(t string) bool {
	if !isNumber(t) {
		return false
	}
	if _, err := strconv.ParseInt(t, 10, 64); err == nil {
		return true
	}
	f, err := strconv.ParseFloat(t, 64)
	return err == nil && f == math.Trunc(f) // 1e3 and 2.0 are integers to JSON Schema
}

// isNumber reports whether t is a JSON number (not Go's wider syntax:
// no "0x1", "Inf" or "1_000").
func isNumber(t string) bool {
	return t != "" && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') && json.Valid([]byte(t))
}
