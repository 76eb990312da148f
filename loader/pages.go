package loader

import (
	"bytes"
	"encoding/json"
	"sync"
	"sync/atomic"
)

// A pageTaker hands the answers to the lister's tools/list requests from a
// stdio tap straight to the lister. mcp-go's stdio transport copies each
// line it reads some five times and decodes it twice before the lister
// sees the result; for pages of hundreds of kilobytes that was most of
// the cost of listing a large server, in time and in memory. The tap
// records the answer on the Wire as it came, gives the lister the line,
// and passes mcp-go a stub answer to the same id with an empty result, so
// that its request returns as it would have.
//
// A result over the page limit, or over what is left of the listing limit,
// is not kept: the lister learns its size and fails the listing.
type pageTaker struct {
	limit     int64        // Limits.Page
	expecting atomic.Int32 // len(waiting), read without the lock per line
	handed    atomic.Int64 // answers taken so far

	mu      sync.Mutex
	waiting map[string]int64     // by canonical id, list requests in flight: the most to keep of each
	taken   map[string]takenPage // their answers
}

// A takenPage is the answer to one of the lister's requests.
type takenPage struct {
	result []byte // nil when it was over the page limit
	size   int    // the result's length
}

func newPageTaker(limit int64) *pageTaker {
	return &pageTaker{limit: limit, waiting: map[string]int64{}, taken: map[string]takenPage{}}
}

// expect says that the answer to the request id (its JSON text) is to be
// taken, and its result kept if it is at most room bytes (and within the
// page limit).
func (p *pageTaker) expect(id string, room int64) {
	p.mu.Lock()
	p.waiting[canonicalID(json.RawMessage(id))] = min(room, p.limit)
	p.expecting.Store(int32(len(p.waiting)))
	p.mu.Unlock()
}

// take returns the answer to id, if the tap took it, and forgets id either
// way: an answer coming later goes to mcp-go.
func (p *pageTaker) take(id string) (takenPage, bool) {
	key := canonicalID(json.RawMessage(id))
	p.mu.Lock()
	defer p.mu.Unlock()
	result, ok := p.taken[key]
	delete(p.taken, key)
	delete(p.waiting, key)
	p.expecting.Store(int32(len(p.waiting)))
	return result, ok
}

// offer gives the taker a line the tap read, which must be valid JSON. For
// an answer with a result to a request it expects, it keeps a copy of the
// result and returns the stub line to pass on instead.
func (p *pageTaker) offer(line []byte) (stub []byte, took bool) {
	if p.expecting.Load() == 0 {
		return nil, false
	}
	var v [4][]byte
	if !jsonMembers(line, []string{"id", "result", "error", "method"}, v[:]) {
		return nil, false
	}
	id, result, isErr, method := v[0], v[1], v[2] != nil, v[3] != nil
	if id == nil || result == nil || isErr || method || result[0] != '{' {
		return nil, false // not a plain answer with a result: mcp-go's to judge
	}
	key := canonicalID(id)
	p.mu.Lock()
	defer p.mu.Unlock()
	room, ok := p.waiting[key]
	if !ok {
		return nil, false
	}
	delete(p.waiting, key)
	p.expecting.Store(int32(len(p.waiting)))
	page := takenPage{size: len(result)}
	if int64(len(result)) <= room {
		page.result = bytes.Clone(result) // exactly its size: the rows keep it
	}
	p.taken[key] = page
	p.handed.Add(1)
	stub = append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	return append(stub, `,"result":{}}`...), true
}
