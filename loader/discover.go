package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/model"
)

// maxPages bounds how many tools/list pages one listing follows.
const maxPages = 1000

// A lister lists a server's tools page by page, as raw rows: mcp-go's
// ListTools decodes rows into mcp.Tool, which would lose a row whose name is
// missing or not a string, and with it the evidence the inspector exists to
// show.
type lister struct {
	pager pager
	seq   atomic.Int64
	// limits bound one page and the listing (Page, Listing); monitor, when
	// set, ends a page's request at once when its answer is refused. Both
	// are set before the first listing.
	limits  Limits
	monitor *monitor
	// meta is the _meta of every request on a stateless connection
	// (2026-07-28), nil on one that ran initialize; set before the first
	// listing.
	meta map[string]any
}

// list follows every nextCursor. A listing that cannot finish cleanly (a
// repeated cursor, too many pages, a cursor that is not a string) returns
// the rows it got with a note saying why it stopped; err is for a request
// that failed outright, and for a page or a listing over its limit (a
// *LimitError): what such a server lists is not shown in part, as its
// rows would hold the memory the limit is there to bound.
func (l *lister) list(ctx context.Context) (tools []model.Tool, note string, err error) {
	seen := map[string]bool{}
	var cursor *string
	var total int64 // bytes of the pages so far
	for page := 1; ; page++ {
		if page > maxPages {
			return tools, fmt.Sprintf("tools/list stopped after %d pages; showing the %d tools listed so far", maxPages, len(tools)), nil
		}
		rows, next, size, err := l.page(ctx, cursor, l.limits.Listing-total)
		if err == nil {
			if total += int64(size); total > l.limits.Listing {
				err = &LimitError{Limit: "listing", Max: l.limits.Listing, What: "the listing"}
			}
		}
		if err != nil {
			if page > 1 {
				return nil, "", fmt.Errorf("tools/list page %d: %w", page, err)
			}
			return nil, "", fmt.Errorf("tools/list: %w", err)
		}
		for _, row := range rows {
			tools = append(tools, toolFromRow(row))
		}
		switch {
		case next.missing:
			return tools, "", nil
		case next.bad != "":
			return tools, fmt.Sprintf("tools/list page %d: nextCursor is %s, not a string; stopped there", page, next.bad), nil
		case seen[next.cursor]:
			return tools, fmt.Sprintf("tools/list page %d: nextCursor %q was already followed; stopped there", page, next.cursor), nil
		}
		seen[next.cursor] = true
		c := next.cursor
		cursor = &c
	}
}

// nextCursor is what a page said about the next one.
type nextCursor struct {
	missing bool   // absent, null or "": this was the last page
	cursor  string // the cursor to follow
	bad     string // the JSON type, when it is not a string
}

// page requests one page and returns its rows, its nextCursor and the
// size of its result; a result over room, which list then refuses, is not
// kept. The id is a string so it can never collide with the integer ids of
// the mcp-go client sharing the transport.
func (l *lister) page(ctx context.Context, cursor *string, room int64) ([]json.RawMessage, nextCursor, int, error) {
	params := map[string]any{}
	if l.meta != nil {
		params["_meta"] = l.meta
	}
	if cursor != nil {
		params["cursor"] = *cursor
	}
	id := "list-" + strconv.FormatInt(l.seq.Add(1), 10)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if l.monitor != nil {
		l.monitor.await(string(mcp.MethodToolsList), cancel)
		defer l.monitor.release(string(mcp.MethodToolsList))
	}
	result, size, err := l.pager.page(ctx, id, params, room)
	if err != nil {
		return nil, nextCursor{}, 0, refusal(ctx, err)
	}
	switch {
	case int64(size) > l.limits.Page:
		return nil, nextCursor{}, 0, &LimitError{Limit: "page", Max: l.limits.Page, What: "the page"}
	case int64(size) > room:
		return nil, nextCursor{}, size, nil // list says the listing is over
	}
	rows, nextRaw, err := pageRows(result)
	if err != nil {
		return nil, nextCursor{}, 0, err
	}

	var next nextCursor
	switch raw := nextRaw; {
	case len(raw) == 0 || string(raw) == "null" || string(raw) == `""`:
		next.missing = true
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &next.cursor); err != nil {
			next.bad = "an invalid string"
		}
	default:
		next.bad = jsonType(raw)
	}
	return rows, next, size, nil
}

// pageRows decodes a tools/list result into its rows and its nextCursor.
// result must be valid JSON, as a result the transport decoded is. A
// well-formed page is scanned, and its rows are the page's own bytes: each
// is a slice of result, so a listed tool costs its bytes once, and no
// decoder copies every row and every schema. Anything else is decoded,
// step by step, to say what is wrong.
func pageRows(result json.RawMessage) ([]json.RawMessage, json.RawMessage, error) {
	var v [2][]byte
	if jsonMembers(result, []string{"tools", "nextCursor"}, v[:]) {
		if rows, ok := jsonElements(v[0]); ok {
			return rows, v[1], nil
		}
	}
	var page struct {
		Tools      *[]json.RawMessage `json:"tools"`
		NextCursor json.RawMessage    `json:"nextCursor"`
	}
	if json.Unmarshal(result, &page) == nil && page.Tools != nil {
		return *page.Tools, page.NextCursor, nil
	}
	var raw struct {
		Tools      json.RawMessage `json:"tools"`
		NextCursor json.RawMessage `json:"nextCursor"`
	}
	if err := json.Unmarshal(result, &raw); err != nil {
		return nil, nil, fmt.Errorf("result is not an object: %s", clip(result))
	}
	var rows []json.RawMessage
	if len(raw.Tools) == 0 || string(raw.Tools) == "null" {
		return nil, nil, fmt.Errorf("result has no tools array")
	}
	if err := json.Unmarshal(raw.Tools, &rows); err != nil {
		return nil, nil, fmt.Errorf("result.tools is %s, not an array", jsonType(raw.Tools))
	}
	return rows, raw.NextCursor, nil
}

// toolFromRow keeps one advertised row as it came, noting why its name is
// unusable when it is.
//
// The row is kept as given, not copied: it is a slice of the page, or was
// allocated by decoding the page. The input schema is the same bytes
// inside Raw rather than a second copy. row must be valid JSON.
func toolFromRow(row json.RawMessage) model.Tool {
	t := model.Tool{Raw: row}
	// Scanned, the members are slices of row, not copies; a row the scan
	// cannot read as encoding/json would is decoded.
	var f [4][]byte // name, title, description, inputSchema
	if !jsonMembers(row, []string{"name", "title", "description", "inputSchema"}, f[:]) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(row, &fields); err != nil {
			t.NameProblem = fmt.Sprintf("row is %s, not an object", jsonType(row))
			return t
		}
		f = [4][]byte{fields["name"], fields["title"], fields["description"], fields["inputSchema"]}
	}
	name, title, description, schema := f[0], f[1], f[2], f[3]
	switch {
	case name == nil:
		t.NameProblem = "missing name"
	case name[0] != '"':
		t.NameProblem = fmt.Sprintf("name is %s, not a string", jsonType(name))
	default:
		if err := json.Unmarshal(name, &t.Name); err != nil {
			t.NameProblem = "name is not a valid string"
		} else if t.Name == "" {
			t.NameProblem = "empty name"
		} else {
			t.NameOK = true
		}
	}
	t.Title = jsonString(title)
	t.Description = jsonString(description)
	if schema != nil {
		t.InputSchema = schema
	}
	return t
}

// jsonType names the type of a JSON value for a message.
func jsonType(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	return model.JSONKind(raw)
}

// clip shortens raw JSON for an error message.
func clip(raw []byte) string {
	const n = 120
	if len(raw) <= n {
		return string(raw)
	}
	return string(raw[:n]) + "..."
}
