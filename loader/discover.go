package loader

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
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
	// level is the log level set on the server, for a stateless
	// connection's _meta (requestMeta).
	level atomic.Pointer[string]
	// toolsCache is the caching hints of the last tools/list (noteCache).
	toolsCache atomic.Pointer[mcpsession.CacheHint]
}

// list follows every nextCursor. A listing that cannot finish cleanly (a
// repeated cursor, too many pages, a cursor that is not a string) returns
// the rows it got with a note saying why it stopped; err is for a request
// that failed outright, and for a page or a listing over its limit (a
// *LimitError): what such a server lists is not shown in part, as its
// rows would hold the memory the limit is there to bound.
func (l *lister) list(ctx context.Context) (tools []model.Tool, note string, err error) {
	rows, note, err := l.rows(ctx, mcp.MethodToolsList, "tools")
	if err != nil {
		return nil, "", err
	}
	tools = make([]model.Tool, len(rows))
	for i, row := range rows {
		tools[i] = mcpsession.ToolOfRow(row)
	}
	return tools, note, nil
}

// rows lists the rows of method, each page's array under key, as list
// lists tools: bounded alike, and stopping alike.
func (l *lister) rows(ctx context.Context, method mcp.MCPMethod, key string) (rows []json.RawMessage, note string, err error) {
	seen := map[string]bool{}
	var cursor *string
	var total int64 // bytes of the pages so far
	for page := 1; ; page++ {
		if page > maxPages {
			return rows, fmt.Sprintf("%s stopped after %d pages; showing the %d %s listed so far", method, maxPages, len(rows), key), nil
		}
		got, next, size, err := l.page(ctx, method, key, cursor, l.limits.Listing-total)
		if err == nil {
			if total += int64(size); total > l.limits.Listing {
				err = &LimitError{Limit: "listing", Max: l.limits.Listing, What: "the listing"}
			}
		}
		if err != nil {
			if page > 1 {
				return nil, "", fmt.Errorf("%s page %d: %w", method, page, err)
			}
			return nil, "", fmt.Errorf("%s: %w", method, err)
		}
		rows = append(rows, got...)
		switch {
		case next.missing:
			return rows, "", nil
		case next.bad != "":
			return rows, fmt.Sprintf("%s page %d: nextCursor is %s, not a string; stopped there", method, page, next.bad), nil
		case seen[next.cursor]:
			return rows, fmt.Sprintf("%s page %d: nextCursor %q was already followed; stopped there", method, page, next.cursor), nil
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
func (l *lister) page(ctx context.Context, method mcp.MCPMethod, key string, cursor *string, room int64) ([]json.RawMessage, nextCursor, int, error) {
	params := map[string]any{}
	if cursor != nil {
		params["cursor"] = *cursor
	}
	result, size, err := l.request(ctx, method, params, room)
	if err != nil {
		return nil, nextCursor{}, 0, err
	}
	switch {
	case int64(size) > l.limits.Page:
		return nil, nextCursor{}, 0, &LimitError{Limit: "page", Max: l.limits.Page, What: "the page"}
	case int64(size) > room:
		return nil, nextCursor{}, size, nil // list says the listing is over
	}
	rows, nextRaw, err := mcpsession.PageRows(result, key)
	if err != nil {
		return nil, nextCursor{}, 0, err
	}
	l.noteCache(method, cursor, result)

	var next nextCursor
	switch raw := nextRaw; {
	case len(raw) == 0 || string(raw) == "null" || string(raw) == `""`:
		next.missing = true
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &next.cursor); err != nil {
			next.bad = "an invalid string"
		}
	default:
		next.bad = mcpsession.JSONType(raw)
	}
	return rows, next, size, nil
}

// request sends one request of the lister's, with the connection's _meta
// when it is stateless, and returns the answer's result and its size (a
// result over room is not kept). The id is a string so it can never
// collide with the integer ids of the mcp-go client sharing the transport.
func (l *lister) request(ctx context.Context, method mcp.MCPMethod, params map[string]any, room int64) ([]byte, int, error) {
	if l.meta != nil {
		params["_meta"] = l.requestMeta()
	}
	prefix := "req-"
	if strings.HasSuffix(string(method), "/list") {
		prefix = "list-"
	}
	id := prefix + strconv.FormatInt(l.seq.Add(1), 10)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if l.monitor != nil {
		l.monitor.await(string(method), cancel)
		defer l.monitor.release(string(method))
	}
	result, size, err := l.pager.send(ctx, id, rpcRequest(method, id, params), room)
	if err != nil {
		return nil, 0, refusal(ctx, err)
	}
	return result, size, nil
}
