package mcpsession

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"

	"github.com/mcplens/mcplens/model"
)

// ToolsOfPage returns the tools of one tools/list result seen on the wire
// by someone else (a tap's recording), read as a listing reads each page,
// and its nextCursor. result must be valid JSON.
func ToolsOfPage(result json.RawMessage) ([]model.Tool, json.RawMessage, error) {
	rows, cursor, err := pageRows(result)
	if err != nil {
		return nil, nil, err
	}
	tools := make([]model.Tool, len(rows))
	for i, row := range rows {
		tools[i] = ToolOfRow(row)
	}
	return tools, cursor, nil
}

// pageRows decodes a tools/list result into its rows and its nextCursor.
func pageRows(result json.RawMessage) ([]json.RawMessage, json.RawMessage, error) {
	return PageRows(result, "tools")
}

// PageRows decodes a list result into its rows, the array under key,
// and its nextCursor.
// result must be valid JSON, as a result the transport decoded is. A
// well-formed page is scanned, and its rows are the page's own bytes: each
// is a slice of result, so a listed tool costs its bytes once, and no
// decoder copies every row and every schema. Anything else is decoded,
// step by step, to say what is wrong.
func PageRows(result json.RawMessage, key string) ([]json.RawMessage, json.RawMessage, error) {
	var v [2][]byte
	if jsonx.Members(result, []string{key, "nextCursor"}, v[:]) {
		if rows, ok := jsonx.Elements(v[0]); ok {
			return rows, v[1], nil
		}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(result, &members); err != nil {
		return nil, nil, fmt.Errorf("result is not an object: %s", Clip(result))
	}
	var rows []json.RawMessage
	list := memberFold(members, key)
	if len(list) == 0 || string(list) == "null" {
		return nil, nil, fmt.Errorf("result has no %s array", key)
	}
	if err := json.Unmarshal(list, &rows); err != nil {
		return nil, nil, fmt.Errorf("result.%s is %s, not an array", key, JSONType(list))
	}
	return rows, memberFold(members, "nextCursor"), nil
}

// memberFold is the member key of an object, matched as encoding/json
// matches a field: exactly, else without regard to case.
func memberFold(members map[string]json.RawMessage, key string) json.RawMessage {
	if v, ok := members[key]; ok {
		return v
	}
	for k, v := range members {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

// ToolOfRow keeps one advertised row as it came, noting why its name is
// unusable when it is.
//
// The row is kept as given, not copied: it is a slice of the page, or was
// allocated by decoding the page. The input schema is the same bytes
// inside Raw rather than a second copy. row must be valid JSON.
func ToolOfRow(row json.RawMessage) model.Tool {
	t := model.Tool{Raw: row}
	// Scanned, the members are slices of row, not copies; a row the scan
	// cannot read as encoding/json would is decoded.
	var f [5][]byte // name, title, description, inputSchema, _meta
	if !jsonx.Members(row, []string{"name", "title", "description", "inputSchema", "_meta"}, f[:]) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(row, &fields); err != nil {
			t.NameProblem = fmt.Sprintf("row is %s, not an object", JSONType(row))
			return t
		}
		f = [5][]byte{fields["name"], fields["title"], fields["description"], fields["inputSchema"], fields["_meta"]}
	}
	name, title, description, schema := f[0], f[1], f[2], f[3]
	switch {
	case name == nil:
		t.NameProblem = "missing name"
	case name[0] != '"':
		t.NameProblem = fmt.Sprintf("name is %s, not a string", JSONType(name))
	default:
		if err := json.Unmarshal(name, &t.Name); err != nil {
			t.NameProblem = "name is not a valid string"
		} else if t.Name == "" {
			t.NameProblem = "empty name"
		} else {
			t.NameOK = true
		}
	}
	t.Title = jsonx.String(title)
	t.Description = jsonx.String(description)
	if schema != nil {
		t.InputSchema = schema
	}
	t.App = model.AppOfMeta(f[4])
	return t
}

// JSONType names the type of a JSON value for a message (the loader's
// and a recording's alike).
func JSONType(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	return model.JSONKind(raw)
}

// Clip shortens raw JSON for an error message.
func Clip(raw []byte) string {
	const n = 120
	if len(raw) <= n {
		return string(raw)
	}
	return string(raw[:n]) + "..."
}
