package hostile

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// HTTPModes is every fault the streamable HTTP server commits, by mode
// name; "ok" commits none.
var HTTPModes = []string{
	"ok",
	"endless-body",       // answers tools/list with a JSON body that never ends
	"endless-event",      // answers tools/list with an event whose data: line never ends
	"listen-flood",       // sends an endless data: line on the listening GET; lists tools once the client hangs up on it
	"gzip-bomb",          // answers tools/list with gzip that inflates without end (1000:1)
	"huge-error",         // answers tools/list with a 500 whose body is 50 MB
	"endless-result",     // answers tools/call with a JSON body that never ends
	"endless-call-event", // answers tools/call with an event that never ends
	"sse-flood",          // an SSE server whose stream sends the endpoint, then an event that never ends
	"stateless-flood",    // a 2026-07-28 server: answers server/discover, and a request of another method, or without _meta, with a JSON body that never ends
}

// HTTP is a streamable HTTP MCP server (without sessions) serving each
// mode of HTTPModes at the path "/MODE". Apart from its fault, it answers
// initialize, lists one tool, "big", and answers tools/call with "ok".
func HTTP() http.Handler {
	return &httpServer{hungUp: make(chan struct{})}
}

type httpServer struct {
	once   sync.Once
	hungUp chan struct{} // closed when a client hangs up on the listening flood
}

func (s *httpServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mode, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if mode == "sse-flood" {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			flood(w, r, "event: endpoint\ndata: /sse-flood/message\n\ndata: ")
			return
		}
		w.WriteHeader(http.StatusAccepted) // the answer would come on the stream
		return
	}
	switch r.Method {
	case http.MethodDelete:
		return
	case http.MethodGet:
		if mode != "listen-flood" {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		flood(w, r, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"")
		s.once.Do(func() { close(s.hungUp) })
		return
	case http.MethodPost:
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if req.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	start := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":`, req.ID)
	if mode == "stateless-flood" {
		w.Header().Set("Content-Type", "application/json")
		if req.Method != "server/discover" || req.Params.Meta == nil {
			flood(w, r, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"`, req.ID))
			return
		}
		fmt.Fprint(w, start+`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"hostile-http","version":"1"}},"supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}}`)
		return
	}
	var result string
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hostile-http","version":"1"}}`
	case "tools/list":
		opening := start + `{"tools":[{"name":"big","inputSchema":{"type":"object"},"description":"`
		switch mode {
		case "endless-body":
			w.Header().Set("Content-Type", "application/json")
			flood(w, r, opening)
			return
		case "endless-event":
			w.Header().Set("Content-Type", "text/event-stream")
			flood(w, r, "data: "+opening)
			return
		case "gzip-bomb":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			bomb(w, r, opening)
			return
		case "huge-error":
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusInternalServerError)
			chunk := bytes.Repeat([]byte("internal error "), 4<<10)
			for n := 0; n < 50<<20; n += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			return
		case "listen-flood":
			select { // so that the flood, not the listing, decides
			case <-s.hungUp:
			case <-r.Context().Done():
			}
		}
		result = `{"tools":[{"name":"big","inputSchema":{"type":"object"}}]}`
	case "tools/call":
		opening := start + `{"content":[{"type":"text","text":"`
		switch mode {
		case "endless-result":
			w.Header().Set("Content-Type", "application/json")
			flood(w, r, opening)
			return
		case "endless-call-event":
			w.Header().Set("Content-Type", "text/event-stream")
			flood(w, r, "data: "+opening)
			return
		}
		result = `{"content":[{"type":"text","text":"ok"}]}`
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`, req.ID)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, start+result+"}")
}

// flood writes start, then "x" until the client goes.
func flood(w http.ResponseWriter, r *http.Request, start string) {
	if _, err := w.Write([]byte(start)); err != nil {
		return
	}
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// bombMember is one gzip member inflating to 16 MiB of "x", some 16 KB.
var bombMember = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for range 16 {
		z.Write(chunk)
	}
	z.Close()
	return b.Bytes()
})

// bomb writes a gzip stream of start, then members of bombMember until the
// client goes: a reader that inflates it without bound holds gigabytes
// for each megabyte sent.
func bomb(w http.ResponseWriter, r *http.Request, start string) {
	var head bytes.Buffer
	z := gzip.NewWriter(&head)
	z.Write([]byte(start))
	z.Close()
	if _, err := w.Write(head.Bytes()); err != nil {
		return
	}
	member := bombMember()
	for r.Context().Err() == nil {
		if _, err := w.Write(member); err != nil {
			return
		}
	}
}
