// Command scale is an MCP server with as many tools as asked, for mcplens's
// performance benchmarks: it advertises the surface internal/testkit/scale
// generates for one server of a large config (realistic names, a
// description, a ~1 KB input schema each), and can hold back its answer to
// initialize, as a slow server would.
//
//	scale [-server I] [-tools N] [-delay D] [-page N]
//
// Every tool answers a call with the name it received and its arguments,
// as the demo servers do. The server exits when stdin ends.
//
// It speaks JSON-RPC over stdio by hand rather than through an SDK: mcp-go's
// server package spends tens of milliseconds of CPU initializing its
// dependencies before main runs, and fifty such servers starting at once on
// two cores would measure that, not how mcplens connects.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/scale"
)

func main() {
	index := flag.Int("server", 0, "which server of the generated config to be")
	n := flag.Int("tools", 200, "how many tools to advertise")
	delay := flag.Duration("delay", 0, "how long to wait before answering initialize")
	page := flag.Int("page", 0, "tools per tools/list page; 0 lists them all at once")
	flag.Parse()

	s := &server{index: *index, n: *n, delay: *delay, page: *page, out: bufio.NewWriter(os.Stdout)}
	if err := s.serve(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

type server struct {
	index, n, page int
	delay          time.Duration

	once  sync.Once
	rows  []json.RawMessage // the tools/list rows, built on first use
	names map[string]bool

	mu  sync.Mutex // one line at a time on stdout
	out *bufio.Writer
}

// A request is any JSON-RPC message the server reads; one without an id is
// a notification and gets no answer.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Cursor          string          `json:"cursor"`
		Name            string          `json:"name"`
		Arguments       json.RawMessage `json:"arguments"`
	} `json:"params"`
}

func (s *server) serve(in io.Reader) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var req request
			if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 && string(req.ID) != "null" {
				s.answer(req)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (s *server) answer(req request) {
	switch req.Method {
	case "initialize":
		time.Sleep(s.delay)
		version := req.Params.ProtocolVersion
		if version == "" {
			version = "2025-11-25"
		}
		s.result(req.ID, map[string]any{
			"protocolVersion": version,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": scale.Label(s.index), "version": "1.0.0"},
		})
	case "ping":
		s.result(req.ID, map[string]any{})
	case "tools/list":
		s.list(req)
	case "tools/call":
		s.call(req)
	default:
		s.error(req.ID, -32601, "method not found: "+req.Method)
	}
}

// tools builds the rows once.
func (s *server) tools() []json.RawMessage {
	s.once.Do(func() {
		s.names = make(map[string]bool, s.n)
		for _, t := range scale.Tools(s.index, s.n) {
			s.rows = append(s.rows, t.Row())
			s.names[t.Name] = true
		}
	})
	return s.rows
}

func (s *server) list(req request) {
	rows := s.tools()
	start := 0
	if req.Params.Cursor != "" {
		var err error
		if start, err = strconv.Atoi(req.Params.Cursor); err != nil || start < 0 || start > len(rows) {
			s.error(req.ID, -32602, "invalid cursor")
			return
		}
	}
	end := len(rows)
	if s.page > 0 {
		end = min(end, start+s.page)
	}
	result := map[string]any{"tools": rows[start:end]}
	if end < len(rows) {
		result["nextCursor"] = strconv.Itoa(end)
	}
	s.result(req.ID, result)
}

func (s *server) call(req request) {
	s.tools()
	if !s.names[req.Params.Name] {
		s.error(req.ID, -32602, "unknown tool: "+req.Params.Name)
		return
	}
	args := string(req.Params.Arguments)
	if args == "" {
		args = "{}"
	}
	text := fmt.Sprintf("%s received tool %q with arguments %s", scale.Label(s.index), req.Params.Name, args)
	s.result(req.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
}

func (s *server) result(id json.RawMessage, result any) {
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (s *server) error(id json.RawMessage, code int, message string) {
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
}

func (s *server) write(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(b)
	s.out.WriteByte('\n')
	s.out.Flush()
}
