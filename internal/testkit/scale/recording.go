package scale

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// A Recording is the shape of a tap's recording to generate: Servers
// servers, each with a header, the client's initialize and its answer,
// and one tools/list answer of Tools generated tools (Tools(i, n)); then
// Calls tools/call requests spread over the servers, each answered with a
// text result of Result bytes.
type Recording struct {
	Servers, Tools, Calls, Result int
}

// start is the time of a generated recording's first line.
var start = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// Write writes the recording r describes to w, as one file holding every
// server's lines (a recording concatenated from several taps reads the
// same), and returns how many bytes it wrote.
func (r Recording) Write(w io.Writer) (int64, error) {
	cw := &countWriter{w: bufio.NewWriterSize(w, 1<<20)}
	t := start
	line := func(server, dir string, frame any) {
		t = t.Add(time.Millisecond)
		fr, _ := json.Marshal(frame)
		fmt.Fprintf(cw, `{"t":%q,"server":%q,"dir":%q,"frame":%s}`+"\n", t.Format(time.RFC3339Nano), server, dir, fr)
	}
	for i := range r.Servers {
		label := Label(i)
		fmt.Fprintf(cw, `{"format":"mcplens-tap","version":1,"server":%q,"t":%q,"command":["scale",%q]}`+"\n",
			label, t.Format(time.RFC3339Nano), label)
		line(label, "c2s", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
			"protocolVersion": "2025-11-25", "clientInfo": map[string]string{"name": "claude-code", "version": "2.1.0"},
			"capabilities": map[string]any{"roots": map[string]bool{"listChanged": true}}}})
		line(label, "s2c", map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
			"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]bool{"listChanged": true}},
			"serverInfo": map[string]string{"name": label, "version": "1.0.0"}}})
		line(label, "c2s", map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": map[string]any{}})
		rows := make([]json.RawMessage, 0, r.Tools)
		for _, tool := range Tools(i, r.Tools) {
			rows = append(rows, tool.Row())
		}
		line(label, "s2c", map[string]any{"jsonrpc": "2.0", "id": 2, "result": map[string]any{"tools": rows}})
	}
	text := strings.Repeat("result text ", r.Result/12+1)[:r.Result]
	for c := range r.Calls {
		if r.Servers == 0 || r.Tools == 0 {
			break
		}
		i := c % r.Servers
		label := Label(i)
		id := 3 + c/r.Servers
		line(label, "c2s", map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
			"params": map[string]any{"name": Name(i, c%r.Tools), "arguments": map[string]any{"query": fmt.Sprint("call ", c)}}})
		line(label, "s2c", map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{
			"content": []map[string]string{{"type": "text", "text": text}}}})
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		return cw.n, err
	}
	return cw.n, cw.err
}

// countWriter counts what it writes and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
