// Command hostile is an MCP server that misbehaves on purpose, one fault per
// mode, for mcplens's tests. It speaks JSON-RPC over stdio by hand rather
// than through an SDK, so it can break the protocol in ways an SDK would not
// let it.
//
//	hostile -mode MODE [-record FILE] [-tools N] [-page N] [-same]
//
// Every mode answers initialize and tools/list (unless its fault is not
// answering them) and has a tool "echo". With -record, every method received
// is appended to FILE, one line each, so a test can tell whether a tool was
// ever called.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// modes lists every fault, with what the server does.
var modes = map[string]string{
	"ok":                 "behaves",
	"exit-start":         "exits with status 3 before reading anything",
	"exit-initialize":    "exits with status 4 on initialize",
	"exit-list":          "exits with status 5 on tools/list",
	"exit-call":          "exits with status 6 on tools/call",
	"silent-initialize":  "never answers initialize",
	"silent-list":        "never answers tools/list",
	"junk":               "writes banners and log text to stdout, with and without a newline",
	"stray":              "answers ids nobody asked for and writes malformed frames",
	"bad-rows":           "lists tools without a name, with an empty or non-string name, and a name twice",
	"many":               "lists -tools tools, -page per page",
	"cursor-loop":        "pages with a cursor that repeats",
	"escapes":            "puts terminal escapes, bidi overrides and zero-width characters in every text",
	"huge":               "a 1 MB description, a deeply nested schema, schemas true and {\"type\":5}",
	"list-changed-flood": "sends tools/list_changed 100 times a second",
	"list-changed-flood-big": "sends tools/list_changed 100 times a second; each tools/list answer is about 6 MB, " +
		"-tools tools (default 2,000) with 3 KB descriptions, one of them renamed each time",
	"stderr-flood":      "writes to stderr as fast as it can",
	"stubborn":          "ignores stdin closing and SIGTERM",
	"stop-reading":      "stops reading stdin once it has answered tools/list, and stays",
	"slow-call":         "answers tools/call after -delay, with progress (each message -size bytes longer); reports notifications/cancelled on stderr",
	"no-newline":        "writes stdout without a newline, endlessly, from the start",
	"huge-line":         "answers tools/list with one line of -size bytes (default 200 MB)",
	"huge-initialize":   "answers initialize with one line of -size bytes (default 200 MB)",
	"huge-pages":        "lists -pages pages (default 40) of -size bytes each (default 15 MB)",
	"huge-result":       "answers tools/call with a result of -size bytes (default 500 MB)",
	"huge-error-result": "answers tools/call with an isError result of -size bytes (default 20 MB)",
	"deep-answer":       "answers the -on request with a valid result nested 20,000 deep",
	"string-id":         "answers the -on request with its numeric id as a string (1 becomes \"1\")",
	"batch-answer":      "answers the -on request inside a JSON-RPC batch (an array)",
	"nan-answer":        "answers the -on request with a NaN in its result, which is not JSON",
	"long-texts":        "a serverInfo name, a tool name and every error message of 1 MiB",
	"leak":              "answers tools/call with its whole environment and command line, as a server that dumps its config would",
	"big-sampling":      "once initialized, asks a sampling/createMessage whose message is -size bytes (default 4 MiB); logs the answer on stderr",
	"big-elicitation":   "once initialized, asks an elicitation/create whose message is -size bytes (default 1 MiB); logs the answer on stderr",
}

// hugeSizes are the default -size of the modes that write huge lines.
var hugeSizes = map[string]int64{
	"huge-line":         200 << 20,
	"huge-initialize":   200 << 20,
	"huge-pages":        15 << 20,
	"huge-result":       500 << 20,
	"huge-error-result": 20 << 20,
	"big-sampling":      4 << 20,
	"big-elicitation":   1 << 20,
}

type server struct {
	mode       string
	tools      int
	page       int
	delay      time.Duration
	recordPath string
	size       int64  // bytes of the huge modes' lines, or of each page
	pages      int    // pages of the huge-pages mode
	on         string // the request the refused-answer modes answer wrongly
	same       bool   // the list-changed-flood modes list the same tools every time

	mu  sync.Mutex // one frame at a time on stdout
	out *bufio.Writer

	listed  int // tools/list answers so far (list-changed-flood)
	flooded sync.Once
	bigList struct { // the part of each list-changed-flood-big answer that stays
		once sync.Once
		rows string
	}

	deaf bool // stop-reading: tools/list was answered, stdin is read no more

	callsMu sync.Mutex
	calls   map[string]chan struct{} // pending slow calls by id text
}

func main() {
	s := &server{out: bufio.NewWriterSize(os.Stdout, 1<<16), calls: map[string]chan struct{}{}}
	flag.StringVar(&s.mode, "mode", "ok", "the fault to commit")
	flag.StringVar(&s.recordPath, "record", "", "append every method received to this file")
	flag.IntVar(&s.tools, "tools", 10000, "how many tools the many mode lists")
	flag.IntVar(&s.page, "page", 500, "tools per page in the many mode")
	flag.BoolVar(&s.same, "same", false, "list-changed-flood modes: answer every tools/list with the same list")
	flag.DurationVar(&s.delay, "delay", 30*time.Second, "how long the slow-call mode takes to answer")
	flag.String("token", "", "ignored: lets a test pass a secret as an argument")
	flag.Int64Var(&s.size, "size", 0, "bytes of a huge line, or of each page of huge-pages (default: the mode's)")
	flag.IntVar(&s.pages, "pages", 40, "pages of the huge-pages mode")
	flag.StringVar(&s.on, "on", "tools/call", "the request the refused-answer modes answer wrongly: initialize, tools/list or tools/call")
	flag.Parse()
	if _, ok := modes[s.mode]; !ok {
		fmt.Fprintf(os.Stderr, "hostile: unknown mode %q\n", s.mode)
		os.Exit(2)
	}
	if s.size <= 0 {
		s.size = hugeSizes[s.mode]
	}
	if s.mode == "stubborn" {
		// SIGPIPE too: once mcplens is gone, writing to stderr must not end it.
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	}
	fmt.Fprintf(os.Stderr, "hostile: mode %s\n", s.mode)
	switch s.mode {
	case "exit-start":
		fmt.Fprintln(os.Stderr, "hostile: exiting at start")
		os.Exit(3)
	case "junk":
		s.raw("hostile banner v1.0 (not JSON)\n")
		s.raw("log: listening on stdio\n")
	case "stderr-flood":
		go floodStderr()
	case "no-newline":
		s.flood()
	}
	s.serve(os.Stdin)
	switch s.mode {
	case "stubborn":
		fmt.Fprintln(os.Stderr, "hostile: stdin closed, staying")
		for {
			time.Sleep(time.Hour) // not select{}: the runtime would call that a deadlock and exit
		}
	case "junk":
		s.raw("log: stdin closed, bye") // no newline, then end of file
	}
}

func floodStderr() {
	line := []byte(strings.Repeat("hostile: stderr flood ", 40) + "\n")
	for {
		if _, err := os.Stderr.Write(line); err != nil {
			return
		}
	}
}

// A request is any message that came in.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Cursor    string          `json:"cursor"`
		Name      string          `json:"name"`
		RequestID json.RawMessage `json:"requestId"`
		Meta      struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	} `json:"params"`
}

func (s *server) serve(in io.Reader) {
	r := bufio.NewReaderSize(in, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			s.handle(line)
		}
		if s.deaf {
			fmt.Fprintln(os.Stderr, "hostile: no longer reading stdin")
			for {
				time.Sleep(time.Hour)
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *server) handle(line []byte) {
	var req request
	if json.Unmarshal(line, &req) != nil {
		return
	}
	s.record(req.Method)
	if req.Method == "" && req.ID != nil {
		s.answered(line) // the answer to a question this server asked
		return
	}
	if req.ID == nil {
		s.notification(req)
		return
	}
	if req.Method == s.on && s.refusedAnswer(req) {
		return
	}
	switch req.Method {
	case "initialize":
		switch s.mode {
		case "exit-initialize":
			fmt.Fprintln(os.Stderr, "hostile: exiting during initialize")
			os.Exit(4)
		case "silent-initialize":
			return
		case "huge-initialize":
			s.huge(req.ID, `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"`, 'x', s.size, `","version":"1"}}`)
			return
		}
		s.result(req.ID, s.initializeResult())
		if s.mode == "stray" {
			s.stray(req.ID)
		}
	case "tools/list":
		switch s.mode {
		case "exit-list":
			fmt.Fprintln(os.Stderr, "hostile: exiting during tools/list")
			os.Exit(5)
		case "silent-list":
			return
		case "huge-line":
			s.huge(req.ID, `{"tools":[{"name":"big","description":"`, 'x', s.size, `"}]}`)
			return
		case "huge-pages":
			s.hugePage(req)
			return
		}
		s.result(req.ID, s.toolsList(req.Params.Cursor))
		s.deaf = s.mode == "stop-reading"
		if s.mode == "stray" {
			s.result(req.ID, `{"tools":[{"name":"answered_twice"}]}`) // the same id again
		}
	case "tools/call":
		s.call(req)
	case "ping":
		s.result(req.ID, `{}`)
	default:
		message := "no such method"
		if s.mode == "long-texts" {
			message += strings.Repeat(" and no such method", 1<<20/19)
		}
		s.frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":%s}}`, req.ID, quote(message)))
	}
}

func (s *server) notification(req request) {
	switch req.Method {
	case "notifications/initialized":
		if s.mode == "list-changed-flood" || s.mode == "list-changed-flood-big" {
			s.flooded.Do(func() { go s.floodListChanged() })
		}
		if s.mode == "big-sampling" || s.mode == "big-elicitation" {
			go s.askBig()
		}
	case "notifications/cancelled":
		id := string(req.Params.RequestID)
		fmt.Fprintf(os.Stderr, "hostile: notifications/cancelled for request %s\n", id)
		s.callsMu.Lock()
		if done, ok := s.calls[id]; ok {
			close(done)
			delete(s.calls, id)
		}
		s.callsMu.Unlock()
	}
}

func (s *server) initializeResult() string {
	name := "hostile"
	switch s.mode {
	case "escapes":
		name = "hostile\x1b]0;pwned\x07\u202e"
	case "long-texts":
		name = strings.Repeat("hostile", 1<<20/7)
	}
	caps := `{"tools":{}}`
	if s.mode == "list-changed-flood" || s.mode == "list-changed-flood-big" {
		caps = `{"tools":{"listChanged":true}}`
	}
	return fmt.Sprintf(`{"protocolVersion":"2025-11-25","capabilities":%s,"serverInfo":{"name":%s,"version":"6.6.6"}}`, caps, quote(name))
}
