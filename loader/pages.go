package loader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// A pager sends the lister's requests (tools/list and the other lists,
// one page at a time; resources/read, prompts/get, ...).
type pager interface {
	// send sends req, whose id is id, and returns the answer's result and
	// its size; a result over room is not kept (nil), only its size.
	send(ctx context.Context, id string, req transport.JSONRPCRequest, room int64) (result []byte, size int, err error)
}

// A transportPager sends the lister's requests through mcp-go's transport,
// which returns each answer's raw result: over HTTP, where mcp-go reads a
// response once.
type transportPager struct {
	tr transport.Interface
}

func (p transportPager) send(ctx context.Context, _ string, req transport.JSONRPCRequest, _ int64) ([]byte, int, error) {
	resp, err := p.tr.SendRequest(ctx, req)
	if err != nil {
		return nil, 0, err
	}
	if resp.Error != nil {
		return nil, 0, errors.New("server answered " + model.DescribeError(resp.Error.Code, resp.Error.Message))
	}
	return resp.Result, len(resp.Result), nil
}

// listRequest is the tools/list request of one page.
func listRequest(id string, params map[string]any) transport.JSONRPCRequest {
	return rpcRequest(mcp.MethodToolsList, id, params)
}

// rpcRequest is the request of method m as mcp-go writes it: on a
// stateless connection (params carry the revision in _meta), with the
// Mcp-Method header streamable HTTP wants there.
func rpcRequest(m mcp.MCPMethod, id string, params map[string]any) transport.JSONRPCRequest {
	req := transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(id),
		Method:  string(m),
		Params:  params,
	}
	if meta, ok := params["_meta"].(map[string]any); ok {
		version, _ := meta[mcp.MetaKeyProtocolVersion].(string)
		encoded, _ := json.Marshal(params)
		req.Header = http.Header{}
		for name, value := range mcp.StandardHeaders(version, m, encoded) {
			req.Header.Set(name, value)
		}
	}
	return req
}

// A pageTaker sends the lister's requests over stdio itself and takes their
// answers from the tap: mcp-go's stdio transport copies each line it reads
// some five times and decodes it twice before a caller sees the result;
// for pages of hundreds of kilobytes that was most of the cost of listing
// a large server, in time and in memory. The request goes through the same
// tapped stdin as mcp-go's (a tapWriter writes each line whole), and its
// answer, recorded in the FrameLog as it came, goes to the lister alone:
// mcp-go never sent the request, so it is not handed the answer.
//
// A result over the page limit, or over what is left of the listing limit,
// is not kept: the lister learns its size and fails the listing.
type pageTaker struct {
	w         io.Writer     // the server's tapped stdin
	eof       chan struct{} // closed when the server's stdout ends
	limit     int64         // Limits.Page
	expecting atomic.Int32  // len(waiting), read without the lock per frame
	handed    atomic.Int64  // answers taken so far

	mu      sync.Mutex
	waiting map[string]*pageWait // by canonical id, the requests in flight
}

// A pageWait is one request of the lister's waiting for its answer.
type pageWait struct {
	room int64          // the most to keep of its result
	done chan takenPage // capacity 1
}

// A takenPage is the answer to one of the lister's requests.
type takenPage struct {
	result []byte // nil when it was over room
	size   int    // the result's length
	err    error  // the error the server answered
}

func newPageTaker(limit int64, w io.Writer, eof chan struct{}) *pageTaker {
	return &pageTaker{w: w, eof: eof, limit: limit, waiting: map[string]*pageWait{}}
}

// page sends the tools/list request of params.
func (p *pageTaker) page(ctx context.Context, id string, params map[string]any, room int64) ([]byte, int, error) {
	return p.send(ctx, id, listRequest(id, params), room)
}

// send writes the request and waits for its answer, the end of ctx, or the
// end of the server's stdout, failing as mcp-go's stdio transport does.
func (p *pageTaker) send(ctx context.Context, id string, req transport.JSONRPCRequest, room int64) ([]byte, int, error) {
	select {
	case <-p.eof:
		return nil, 0, transport.ErrTransportClosed
	default:
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	line, err := json.Marshal(req)
	if err != nil {
		return nil, 0, fmt.Errorf("failed to marshal request: %w", err)
	}
	key := canonicalID(json.RawMessage(strconv.Quote(id)))
	wait := &pageWait{room: min(room, p.limit), done: make(chan takenPage, 1)}
	p.mu.Lock()
	p.waiting[key] = wait
	p.expecting.Store(int32(len(p.waiting)))
	p.mu.Unlock()
	defer p.forget(key)

	if _, err := p.w.Write(append(line, '\n')); err != nil {
		return nil, 0, fmt.Errorf("failed to write request: %w", err)
	}
	var page takenPage
	select {
	case page = <-wait.done:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	case <-p.eof:
		select {
		case page = <-wait.done: // the answer came just before the end
		default:
			return nil, 0, transport.ErrTransportClosed
		}
	}
	return page.result, page.size, page.err
}

// forget stops waiting for the answer to key: one coming later goes to
// mcp-go, which drops it.
func (p *pageTaker) forget(key string) {
	p.mu.Lock()
	delete(p.waiting, key)
	p.expecting.Store(int32(len(p.waiting)))
	p.mu.Unlock()
}

// frame takes f when it answers a request the taker waits on, keeping a
// copy of its result for the lister.
func (p *pageTaker) frame(f *frameInfo) {
	if p.expecting.Load() == 0 || f.dir != mcpsession.In || !f.valid || !f.object || len(f.env.ID) == 0 || f.env.Method != nil {
		return
	}
	key := canonicalID(f.env.ID)
	p.mu.Lock()
	defer p.mu.Unlock()
	wait, ok := p.waiting[key]
	if !ok {
		return
	}
	page := takenPage{size: len(f.env.Result)}
	if f.env.Error != nil {
		var resp transport.JSONRPCResponse
		if json.Unmarshal(f.line, &resp) != nil {
			return // an answer mcp-go could not read either: the wait goes on
		}
		if resp.Error != nil {
			page = takenPage{err: errors.New("server answered " + model.DescribeError(resp.Error.Code, resp.Error.Message))}
		}
	}
	if page.err == nil && int64(page.size) <= wait.room {
		page.result = bytes.Clone(f.env.Result) // exactly its size: the rows keep it
	}
	delete(p.waiting, key)
	p.expecting.Store(int32(len(p.waiting)))
	p.handed.Add(1)
	wait.done <- page
	f.taken = true
}
