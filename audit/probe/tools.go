package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// A toolRow is the part of a listed tool the checks read.
type toolRow struct {
	Name         *string         `json:"name"`
	Title        json.RawMessage `json:"title"`
	Description  json.RawMessage `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Execution    *struct {
		TaskSupport json.RawMessage `json:"taskSupport"`
	} `json:"execution"`
}

// maxOutputSchemas bounds the output schemas kept for checking the
// results of --call.
const maxOutputSchemas = 1000

// hints are the boolean annotations of a tool.
var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// headerToken is an HTTP field name (RFC 9110 token).
var headerToken = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

func (a *auditor) checkTools(rows []listed) {
	for _, id := range []string{"tools.name", "tools.input-schema", "tools.output-schema", "tools.annotations", "tools.task-support", "tools.mcp-header"} {
		a.fs.probe(id)
	}
	tasks := a.declaresToolTasks()
	for _, row := range rows {
		var t toolRow
		if err := json.Unmarshal(row.raw, &t); err != nil || t.Name == nil {
			a.fs.add("tools.name", "", "a listed tool has no string name", a.t.since(row.mark))
			continue
		}
		name := *t.Name
		ev := func() []mcpFrame { return a.t.since(row.mark) }
		if c := model.CheckWireName(name); c.Severity != model.Pass {
			a.fs.add("tools.name", name, c.Message, ev())
		}
		if len(t.InputSchema) == 0 {
			a.fs.add("tools.input-schema", name, "the tool has no inputSchema", ev())
		} else if p := schemaProblem("inputSchema", t.InputSchema); p != "" {
			a.fs.add("tools.input-schema", name, p, ev())
		} else {
			a.mcpHeaders(name, t.InputSchema, ev)
		}
		if len(t.OutputSchema) > 0 && string(t.OutputSchema) != "null" {
			if p := schemaProblem("outputSchema", t.OutputSchema); p != "" {
				a.fs.add("tools.output-schema", name, p, ev())
			} else if len(a.outputSchemas) < maxOutputSchemas {
				a.outputSchemas[name] = t.OutputSchema
			}
		}
		if d := t.Description; len(d) > 0 && d[0] != '"' && string(d) != "null" {
			a.fs.add("tools.annotations", name, fmt.Sprintf("description is %s, not a string", model.JSONKind(d)), ev())
		} else if p := annotationsProblem(t.Title, t.Annotations); p != "" {
			a.fs.add("tools.annotations", name, p, ev())
		}
		if t.Execution != nil && len(t.Execution.TaskSupport) > 0 {
			var ts string
			_ = json.Unmarshal(t.Execution.TaskSupport, &ts)
			switch {
			case ts != "forbidden" && ts != "optional" && ts != "required":
				a.fs.add("tools.task-support", name, fmt.Sprintf("execution.taskSupport is %s, not forbidden, optional or required", model.Sanitize(string(t.Execution.TaskSupport))), ev())
			case ts != "forbidden" && !tasks:
				a.fs.add("tools.task-support", name, fmt.Sprintf("execution.taskSupport is %s, and the server declares no tasks.requests.tools.call capability", ts), ev())
			}
		}
	}
}

// declaresToolTasks reports whether the capabilities declare task-augmented
// tools/call.
func (a *auditor) declaresToolTasks() bool {
	tasks := a.caps["tasks"]
	call := jsonx.MemberFold(jsonx.MemberFold(jsonx.MemberFold(tasks, "requests"), "tools"), "call")
	return len(call) > 0 && call[0] == '{'
}

// schemaProblem says what keeps schema from being a JSON Schema of type
// object, "" when nothing does: model's rule for an input schema, then the
// schema compiled by argcheck (its draft from $schema, 2020-12 otherwise).
func schemaProblem(what string, schema json.RawMessage) string {
	if p := model.SchemaProblem(schema); p != "" {
		return what + p[len("inputSchema"):]
	}
	if _, err := argcheck.CompileNamed("the "+what, schema); err != nil {
		return err.Error()
	}
	return ""
}

// annotationsProblem checks a tool's title and annotations' types.
func annotationsProblem(title, ann json.RawMessage) string {
	if len(title) > 0 && title[0] != '"' && string(title) != "null" {
		return fmt.Sprintf("title is %s, not a string", model.JSONKind(title))
	}
	if len(ann) == 0 || string(ann) == "null" {
		return ""
	}
	fields, ok := jsonx.Fields(ann)
	if !ok {
		return fmt.Sprintf("annotations is %s, not an object", model.JSONKind(ann))
	}
	for _, f := range fields {
		v := bytes.TrimSpace(f.Value)
		switch {
		case f.Name == "title" && v[0] != '"':
			return fmt.Sprintf("annotations.title is %s, not a string", model.JSONKind(v))
		case isHint(f.Name) && string(v) != "true" && string(v) != "false":
			return fmt.Sprintf("annotations.%s is %s, not a boolean", f.Name, model.JSONKind(v))
		}
	}
	return ""
}

func isHint(name string) bool {
	for _, h := range hints {
		if h == name {
			return true
		}
	}
	return false
}

// mcpHeaders checks the x-mcp-header annotations of an input schema's
// properties: a header name, on a property of a primitive type.
func (a *auditor) mcpHeaders(tool string, schema json.RawMessage, ev func() []mcpFrame) {
	props, ok := jsonx.Fields(jsonx.MemberFold(schema, "properties"))
	if !ok {
		return
	}
	for _, p := range props {
		h := jsonx.MemberFold(p.Value, "x-mcp-header")
		if len(h) == 0 {
			continue
		}
		name := jsonx.String(h)
		typ := jsonx.String(jsonx.MemberFold(p.Value, "type"))
		switch {
		case h[0] != '"' || !headerToken.MatchString(name):
			a.fs.add("tools.mcp-header", tool, fmt.Sprintf("property %q: x-mcp-header %s is not an HTTP header name", p.Name, model.Sanitize(string(h))), ev())
		case typ != "string" && typ != "number" && typ != "integer" && typ != "boolean":
			a.fs.add("tools.mcp-header", tool, fmt.Sprintf("property %q carries x-mcp-header %q and is of type %q, not a primitive", p.Name, name, typ), ev())
		}
	}
}
