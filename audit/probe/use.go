package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/yosida95/uritemplate/v3"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// appMIME is the media type of an MCP Apps ui:// resource.
const appMIME = "text/html;profile=mcp-app"

func (a *auditor) checkResources(ctx context.Context, resources, templates []listed) {
	a.fs.probe("resources.uri")
	a.fs.probe("resources.template")
	a.fs.probe("resources.ui")
	var uris []string
	for _, r := range resources {
		name, uri := jsonx.MemberFold(r.raw, "name"), jsonx.MemberFold(r.raw, "uri")
		u := jsonx.String(uri)
		subject := model.Sanitize(u)
		parsed, err := url.Parse(u)
		switch {
		case len(uri) == 0 || uri[0] != '"':
			a.fs.add("resources.uri", subject, "a listed resource has no string uri", a.t.since(r.mark))
			continue
		case err != nil || parsed.Scheme == "":
			a.fs.add("resources.uri", subject, fmt.Sprintf("uri %q is not an absolute URI", subject), a.t.since(r.mark))
			continue
		case len(name) == 0 || name[0] != '"':
			a.fs.add("resources.uri", subject, "the resource has no string name", a.t.since(r.mark))
		}
		if parsed.Scheme == "ui" {
			if mt := jsonx.String(jsonx.MemberFold(r.raw, "mimeType")); !sameMIME(mt, appMIME) {
				a.fs.add("resources.ui", subject, fmt.Sprintf("a ui:// resource listed as %q, not %s", model.Sanitize(mt), appMIME), a.t.since(r.mark))
			}
		}
		uris = append(uris, u)
	}
	for _, t := range templates {
		tmpl := jsonx.MemberFold(t.raw, "uriTemplate")
		s := jsonx.String(tmpl)
		switch {
		case len(tmpl) == 0 || tmpl[0] != '"':
			a.fs.add("resources.template", "", "a resource template has no string uriTemplate", a.t.since(t.mark))
		case len(jsonx.MemberFold(t.raw, "name")) == 0:
			a.fs.add("resources.template", model.Sanitize(s), "the resource template has no name", a.t.since(t.mark))
		default:
			if _, err := uritemplate.New(s); err != nil {
				a.fs.add("resources.template", model.Sanitize(s), fmt.Sprintf("uriTemplate %q is not an RFC 6570 template: %v", model.Sanitize(s), err), a.t.since(t.mark))
			}
		}
	}
	a.readResources(ctx, uris)
	// 2026-07-28 moves "not found" to -32602 (invalid params); a server
	// of both eras may answer a stateless request with either.
	if a.stateless {
		a.expectError(ctx, "resources.not-found", "resources/read", map[string]any{"uri": "mcplens-audit://no-such-resource"}, -32602, -32002)
	} else {
		a.expectError(ctx, "resources.not-found", "resources/read", map[string]any{"uri": "mcplens-audit://no-such-resource"}, -32002)
	}
}

func sameMIME(got, want string) bool {
	return strings.EqualFold(strings.ReplaceAll(got, " ", ""), want)
}

// readResources reads the first Options.Items static resources.
func (a *auditor) readResources(ctx context.Context, uris []string) {
	a.fs.probe("resources.read")
	for _, u := range uris[:min(len(uris), a.o.Items)] {
		pctx, cancel := a.probeCtx(ctx)
		mark := a.t.mark()
		m, err := a.c.call(pctx, "resources/read", map[string]any{"uri": u})
		cancel()
		subject := model.Sanitize(u)
		if p := callProblem(m, err); p != "" {
			a.fs.add("resources.read", subject, "resources/read "+p, a.t.since(mark))
			continue
		}
		a.cacheHints("resources/read", m, mark)
		contents, ok := jsonx.Elements(jsonx.MemberFold(m.Result, "contents"))
		if !ok {
			a.fs.add("resources.read", subject, "the resources/read result has no contents array", a.t.since(mark))
			continue
		}
		for _, c := range contents {
			text, blob := jsonx.MemberFold(c, "text"), jsonx.MemberFold(c, "blob")
			if len(jsonx.MemberFold(c, "uri")) == 0 || (len(text) == 0 && len(blob) == 0) {
				a.fs.add("resources.read", subject, "a content of the resources/read result lacks its uri, or both text and blob", a.t.since(mark))
				break
			}
		}
	}
}

// callProblem says how a request failed, "" when it was answered with a
// result.
func callProblem(m message, err error) string {
	switch {
	case err != nil:
		return "was not answered: " + err.Error()
	case m.Error != nil:
		return fmt.Sprintf("was refused: %d %s", m.Error.Code, model.Sanitize(m.Error.Message))
	case !isObject(m.Result):
		return "answered a result that is not an object"
	}
	return ""
}

type promptRow struct {
	Name      *string `json:"name"`
	Arguments []struct {
		Name     *string         `json:"name"`
		Required json.RawMessage `json:"required"`
	} `json:"arguments"`
}

func (a *auditor) checkPrompts(ctx context.Context, prompts []listed) {
	a.fs.probe("prompts.arguments")
	a.fs.probe("prompts.get")
	a.expectError(ctx, "prompts.unknown", "prompts/get", map[string]any{"name": "mcplens-audit-no-such-prompt"}, -32602)
	got := 0
	for _, p := range prompts {
		var row promptRow
		if err := json.Unmarshal(p.raw, &row); err != nil || row.Name == nil {
			a.fs.add("prompts.arguments", "", "a listed prompt has no string name, or arguments that are not an array of objects", a.t.since(p.mark))
			continue
		}
		name := model.Sanitize(*row.Name)
		required := false
		for _, arg := range row.Arguments {
			r := string(arg.Required)
			if arg.Name == nil || (r != "" && r != "true" && r != "false" && r != "null") {
				a.fs.add("prompts.arguments", name, "an argument has no string name or a required that is not a boolean", a.t.since(p.mark))
			}
			required = required || r == "true"
		}
		if required || got >= a.o.Items {
			continue
		}
		got++
		pctx, cancel := a.probeCtx(ctx)
		mark := a.t.mark()
		m, err := a.c.call(pctx, "prompts/get", map[string]any{"name": *row.Name, "arguments": map[string]string{}})
		cancel()
		if pr := callProblem(m, err); pr != "" {
			a.fs.add("prompts.get", name, "prompts/get "+pr, a.t.since(mark))
			continue
		}
		msgs, ok := jsonx.Elements(jsonx.MemberFold(m.Result, "messages"))
		if !ok {
			a.fs.add("prompts.get", name, "the prompts/get result has no messages array", a.t.since(mark))
			continue
		}
		for _, msg := range msgs {
			role := jsonx.String(jsonx.MemberFold(msg, "role"))
			if (role != "user" && role != "assistant") || !isObject(jsonx.MemberFold(msg, "content")) {
				a.fs.add("prompts.get", name, "a message has no role user or assistant, or no content object", a.t.since(mark))
				break
			}
		}
	}
}
