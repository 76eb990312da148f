package probe

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// A listed item is one row of a listing and the frames of its page.
type listed struct {
	raw  json.RawMessage
	mark int // the tape mark of its page
}

// list follows a listing's pages, checking the cursors; ok is false when a
// page failed (a finding of lifecycle.capabilities).
func (a *auditor) list(ctx context.Context, method, key, capability string) (rows []listed, ok bool) {
	seenCursor := map[string]bool{}
	seenName := map[string]bool{}
	var cursor *string
	var read int64 // bytes of the pages so far, bounded by Limits.Listing
	a.fs.probe("lifecycle.capabilities")
	a.fs.probe("listing.cursor-loop")
	a.fs.probe("listing.duplicate")
	a.fs.probe("listing.empty-page")
	a.fs.probe("listing.last-cursor")
	for page := 0; page < maxPages; page++ {
		pctx, cancel := a.probeCtx(ctx)
		mark := a.t.mark()
		var params any
		if cursor != nil {
			params = map[string]any{"cursor": *cursor}
		}
		m, err := a.c.call(pctx, method, params)
		cancel()
		if err == nil && m.Error != nil {
			err = fmt.Errorf("error %d %s", m.Error.Code, m.Error.Message)
		}
		if err != nil {
			a.fs.add("lifecycle.capabilities", method, fmt.Sprintf("the server declares %s, and %s failed: %v", capability, method, err), a.t.since(mark))
			return rows, false
		}
		if read += int64(len(m.raw)); read > a.o.Limits.Listing {
			a.fs.add("lifecycle.capabilities", method, fmt.Sprintf("%s is over the %d-byte listing limit at page %d; the audit read no further", method, a.o.Limits.Listing, page+1), a.t.since(mark))
			return rows, false
		}
		var r struct {
			NextCursor *string `json:"nextCursor"`
		}
		_ = json.Unmarshal(m.Result, &r)
		a.cacheHints(method, m, mark)
		items, isArray := jsonx.Elements(jsonx.MemberFold(m.Result, key))
		if !isArray {
			a.fs.add("lifecycle.capabilities", method, fmt.Sprintf("the %s result has no %q array", method, key), a.t.since(mark))
			return rows, false
		}
		for _, it := range items {
			field, name := itemKey(it)
			if name != "" && seenName[field+"\x00"+name] {
				a.fs.add("listing.duplicate", name, fmt.Sprintf("%s lists the %s %q again on page %d", method, field, name, page+1), a.t.since(mark))
			}
			seenName[field+"\x00"+name] = true
			rows = append(rows, listed{raw: it, mark: mark})
		}
		if nc := jsonx.MemberFold(m.Result, "nextCursor"); len(nc) > 0 && string(nc) != "null" && (r.NextCursor == nil || *r.NextCursor == "") {
			a.fs.add("listing.last-cursor", method, fmt.Sprintf("page %d of %s gives nextCursor %s, not a non-empty string; the last page omits it", page+1, method, model.Sanitize(string(nc))), a.t.since(mark))
			return rows, true
		}
		if r.NextCursor == nil {
			return rows, true
		}
		if len(items) == 0 {
			a.fs.add("listing.empty-page", method, fmt.Sprintf("page %d of %s is empty and gives a nextCursor", page+1, method), a.t.since(mark))
		}
		if seenCursor[*r.NextCursor] {
			a.fs.add("listing.cursor-loop", method, fmt.Sprintf("%s gave the cursor %q a second time, on page %d", method, *r.NextCursor, page+1), a.t.since(mark))
			return rows, true
		}
		seenCursor[*r.NextCursor] = true
		cursor = r.NextCursor
	}
	a.fs.add("listing.cursor-loop", method, fmt.Sprintf("%s gave a nextCursor on each of %d pages; the audit stopped there", method, maxPages), nil)
	return rows, true
}

// itemKey identifies a listed item: its name, else its uri or template.
func itemKey(raw json.RawMessage) (field, value string) {
	for _, k := range []string{"uri", "uriTemplate", "name"} {
		if v := jsonx.MemberFold(raw, k); len(v) > 0 && v[0] == '"' {
			return k, jsonx.String(v)
		}
	}
	return "", ""
}

// listings lists what the server declares and checks each row, then uses
// what can be used without side effects.
func (a *auditor) listings(ctx context.Context) {
	if a.declares("tools") {
		if rows, ok := a.list(ctx, "tools/list", "tools", "tools"); ok {
			a.checkTools(rows)
		}
	} else {
		a.undeclared(ctx, "tools/list", "tools", "tools")
		a.skipAll("the server declares no tools", "tools.name", "tools.input-schema", "tools.output-schema", "tools.annotations", "tools.task-support", "tools.mcp-header")
	}
	var resources, templates, prompts []listed
	if a.declares("resources") {
		resources, _ = a.list(ctx, "resources/list", "resources", "resources")
		templates, _ = a.list(ctx, "resources/templates/list", "resourceTemplates", "resources")
		a.checkResources(ctx, resources, templates)
	} else {
		a.undeclared(ctx, "resources/list", "resources", "resources")
		a.skipAll("the server declares no resources", "resources.uri", "resources.template", "resources.ui", "resources.read", "resources.not-found")
	}
	if a.declares("prompts") {
		prompts, _ = a.list(ctx, "prompts/list", "prompts", "prompts")
		a.checkPrompts(ctx, prompts)
	} else {
		a.undeclared(ctx, "prompts/list", "prompts", "prompts")
		a.skipAll("the server declares no prompts", "prompts.arguments", "prompts.get", "prompts.unknown")
	}
	if a.declares("completions") {
		a.complete(ctx, templates, prompts)
	} else {
		a.skipAll("the server declares no completions", "completion.complete")
	}
	if a.stateless {
		a.skipAll("logging/setLevel is gone from the stateless revisions", "logging.set-level", "logging.invalid-level")
	} else if a.declares("logging") {
		a.setLevel(ctx)
		a.expectError(ctx, "logging.invalid-level", "logging/setLevel", map[string]any{"level": "mcplens-audit-no-such-level"}, -32602)
	} else {
		a.skipAll("the server declares no logging", "logging.set-level", "logging.invalid-level")
	}
}

// undeclared asks for the list of a capability the server does not
// declare: a server that supports one must declare it, so a list with
// items is a finding (an error, or an empty list, is not). It asks only a
// server that has answered every request so far, and keeps no count of an
// unanswered one: a server silent on what it does not serve is judged
// elsewhere (jsonrpc.unknown-method).
func (a *auditor) undeclared(ctx context.Context, method, key, capability string) {
	if a.c.silent > 0 {
		return
	}
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe("lifecycle.capabilities")
	m, err := a.c.call(pctx, method, nil)
	a.c.silent = 0
	if err != nil || m.Error != nil {
		return
	}
	if items, _ := jsonx.Elements(jsonx.MemberFold(m.Result, key)); len(items) > 0 {
		a.fs.add("lifecycle.capabilities", method, fmt.Sprintf("the server does not declare %s, and %s lists %d item(s)", capability, method, len(items)), a.t.since(mark))
	}
}

func (a *auditor) skipAll(why string, ids ...string) {
	for _, id := range ids {
		a.fs.skip(id, why)
	}
}
