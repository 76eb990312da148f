package probe

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/yosida95/uritemplate/v3"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// maxCompletionValues is the specification's bound on one answer's values.
const maxCompletionValues = 100

// complete asks completion/complete for each template variable and prompt
// argument, the first Options.Items of them.
func (a *auditor) complete(ctx context.Context, templates, prompts []listed) {
	a.fs.probe("completion.complete")
	type ask struct {
		ref          map[string]any
		arg, subject string
	}
	var asks []ask
	for _, t := range templates {
		s := jsonx.String(jsonx.MemberFold(t.raw, "uriTemplate"))
		tmpl, err := uritemplate.New(s)
		if err != nil {
			continue
		}
		for _, v := range tmpl.Varnames() {
			asks = append(asks, ask{map[string]any{"type": "ref/resource", "uri": s}, v, s})
		}
	}
	for _, p := range prompts {
		var row promptRow
		if json.Unmarshal(p.raw, &row) != nil || row.Name == nil {
			continue
		}
		for _, arg := range row.Arguments {
			if arg.Name != nil {
				asks = append(asks, ask{map[string]any{"type": "ref/prompt", "name": *row.Name}, *arg.Name, *row.Name})
			}
		}
	}
	for _, q := range asks[:min(len(asks), a.o.Items)] {
		pctx, cancel := a.probeCtx(ctx)
		mark := a.t.mark()
		m, err := a.c.call(pctx, "completion/complete", map[string]any{"ref": q.ref, "argument": map[string]string{"name": q.arg, "value": ""}})
		cancel()
		subject := model.Sanitize(q.subject + " " + q.arg)
		if p := callProblem(m, err); p != "" {
			a.fs.add("completion.complete", subject, "completion/complete "+p, a.t.since(mark))
			continue
		}
		var r struct {
			Completion *struct {
				Values  []string `json:"values"`
				Total   *int     `json:"total"`
				HasMore *bool    `json:"hasMore"`
			} `json:"completion"`
		}
		if err := json.Unmarshal(m.Result, &r); err != nil || r.Completion == nil || r.Completion.Values == nil {
			a.fs.add("completion.complete", subject, "the result has no completion.values array of strings, or a total that is no integer, or a hasMore that is no boolean", a.t.since(mark))
			continue
		}
		if n := len(r.Completion.Values); n > maxCompletionValues {
			a.fs.add("completion.complete", subject, fmt.Sprintf("%d values, more than the %d the specification allows", n, maxCompletionValues), a.t.since(mark))
		}
	}
}

// setLevel sets the log level where logging is declared.
func (a *auditor) setLevel(ctx context.Context) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("logging.set-level")
	m, err := a.c.call(pctx, "logging/setLevel", map[string]any{"level": "info"})
	if p := callProblem(m, err); p != "" {
		a.fs.add("logging.set-level", "logging/setLevel", "logging/setLevel "+p, a.t.since(mark))
	}
}

// calls calls the tools the user named, and no other.
func (a *auditor) calls(ctx context.Context) {
	if len(a.o.Calls) == 0 {
		a.fs.skip("tools.call", "no tool named with --call")
		return
	}
	a.fs.probe("tools.call")
	for _, c := range a.o.Calls {
		pctx, cancel := a.probeCtx(ctx)
		mark := a.t.mark()
		args := c.Args
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		m, err := a.c.call(pctx, "tools/call", map[string]any{"name": c.Name, "arguments": args})
		cancel()
		subject := model.Sanitize(c.Name)
		if p := callProblem(m, err); p != "" {
			a.fs.add("tools.call", subject, "tools/call "+p, a.t.since(mark))
			continue
		}
		if p := a.callResultProblem(c.Name, m.Result); p != "" {
			a.fs.add("tools.call", subject, p, a.t.since(mark))
		}
	}
}

// callResultProblem says what is wrong with a tools/call result of the
// tool name: no content array, an isError that is no boolean, or
// structuredContent missing or invalid against the tool's outputSchema.
func (a *auditor) callResultProblem(name string, result json.RawMessage) string {
	if _, ok := jsonx.Elements(jsonx.MemberFold(result, "content")); !ok {
		return "the tools/call result has no content array"
	}
	if e := jsonx.MemberFold(result, "isError"); len(e) > 0 && string(e) != "true" && string(e) != "false" {
		return fmt.Sprintf("isError is %s, not a boolean", model.JSONKind(e))
	}
	schema := a.outputSchemas[name]
	if len(schema) == 0 || string(jsonx.MemberFold(result, "isError")) == "true" {
		return ""
	}
	structured := jsonx.MemberFold(result, "structuredContent")
	if len(structured) == 0 {
		return "the tool has an outputSchema and its result no structuredContent"
	}
	problems, err := argcheck.Validate(schema, structured)
	switch {
	case err != nil:
		return "" // the schema itself is tools.output-schema's finding
	case len(problems) > 0:
		return fmt.Sprintf("structuredContent breaks the outputSchema at %s: %s", orRoot(problems[0].Pointer), problems[0].Message)
	}
	return ""
}

func orRoot(pointer string) string {
	if pointer == "" {
		return "the root"
	}
	return pointer
}
