package loader

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

// TestMonitorRefuses: an answer to a pending request that the protocol
// cannot take ends the wait of the request's method at once with a
// *RefusedError; an answer to a request nobody waits on that way is only
// marked, and answers to no pending request stay what they were.
func TestMonitorRefuses(t *testing.T) {
	tests := []struct {
		name, method, request, answer string
		junk                          bool
		problem, why                  string
	}{
		{"string id", "tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":"1","result":{}}`, false,
			`refused as the answer to request 1: its id "1" is a string, and a response's id must be the request's, of the same type`,
			`its id "1" is a string, and a response's id must be the request's, of the same type`},
		{"number id", "tools/list", `{"jsonrpc":"2.0","id":"7","method":"tools/list"}`, `{"jsonrpc":"2.0","id":7,"result":{}}`, false,
			`refused as the answer to request "7": its id 7 is a number, and a response's id must be the request's, of the same type`,
			`its id 7 is a number, and a response's id must be the request's, of the same type`},
		{"batch", "initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, `[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":1,"result":{}}]`, false,
			"not a JSON-RPC message: an array, not an object; refused as the answer to request 1: it came inside a JSON-RPC batch (an array), which MCP does not use",
			"it came inside a JSON-RPC batch (an array), which MCP does not use"},
		{"NaN", "tools/call", `{"jsonrpc":"2.0","id":3,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":3,"result":{"n":NaN}}`, true,
			"refused as the answer to request 3: it is not JSON: invalid character 'N' looking for beginning of value, at byte 39",
			"it is not JSON: invalid character 'N' looking for beginning of value, at byte 39"},
		{"deep", "tools/call", `{"jsonrpc":"2.0","id":3,"method":"tools/call"}`,
			`{"jsonrpc":"2.0","id":3,"result":{"n":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}`, true,
			"refused as the answer to request 3: it is not JSON: nested deeper than a JSON decoder reads (10000 levels), at byte 10037",
			"it is not JSON: nested deeper than a JSON decoder reads (10000 levels), at byte 10037"},
		{"nobody waits", "ping", `{"jsonrpc":"2.0","id":4,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":"4","result":{}}`, false,
			`refused as the answer to request 4: its id "4" is a string, and a response's id must be the request's, of the same type`, ""},
		{"no request", "tools/call", `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`, `{"jsonrpc":"2.0","id":"6","result":{}}`, false,
			`answers id "6", which no request is waiting for`, ""},
		{"junk", "tools/call", `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`, `{not json at all`, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMonitor("s", nil)
			m.refuses = true
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			m.await(tt.method, cancel)
			defer m.release(tt.method)
			m.checkLine(mcpsession.Out, []byte(tt.request), false, true)
			if got := m.checkLine(mcpsession.In, []byte(tt.answer), tt.junk, !tt.junk); got != tt.problem {
				t.Errorf("check(%.60s) = %q, want %q", tt.answer, got, tt.problem)
			}
			if context.Cause(ctx) != nil {
				t.Errorf("the wait ended before the frame was recorded")
			}
			m.flush()
			var refused *RefusedError
			ended := errors.As(context.Cause(ctx), &refused)
			if ended != (tt.why != "") || ended && (refused.Why != tt.why || refused.Got != mcpsession.Clip([]byte(tt.answer))) {
				t.Errorf("the wait ended with %v, want a refusal %q", context.Cause(ctx), tt.why)
			}
			if err := refusal(ctx, context.Canceled); ended && err != refused || !ended && err != context.Canceled {
				t.Errorf("refusal() = %v", err)
			}
		})
	}
}

// TestTapKeepsBrokenMessagesWhole: a line that starts as a JSON-RPC
// message but is not JSON is one junk frame, not pieces of it salvaged as
// messages; junk before a message still is split off.
func TestTapKeepsBrokenMessagesWhole(t *testing.T) {
	nan := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}],"n":NaN}}`
	w := newFrameLog("a")
	got, err := io.ReadAll(newTapReader(strings.NewReader(nan+"\n"+`log {"jsonrpc":"2.0","id":4,"result":{}}`+"\n"), w, DefaultLimits.Line))
	if err != nil || string(got) != `{"jsonrpc":"2.0","id":4,"result":{}}`+"\n" {
		t.Errorf("the protocol read %q, %v; want only the message after the log text", got, err)
	}
	f := w.Frames()
	if len(f) != 3 || string(f[0].Bytes) != nan || !f[0].Junk || string(f[1].Bytes) != "log " || !f[1].Junk || f[2].Junk {
		t.Errorf("frames %+v, want the broken message whole, then the log text and the message", f)
	}
}

// FuzzTapReader feeds any bytes through a tap whose monitor waits on every
// request: nothing panics (the scans read lines that are not JSON), and
// the protocol reads only JSON, one value a line.
func FuzzTapReader(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"n":NaN}}` + "\n" + `[{"jsonrpc":"2.0","id":"1","result":{}}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":` + "\n" + `{"jsonrpc" {"id":1,"result":[[[` + "\n" + `log {"a":1}`))
	f.Add([]byte(`{"id":"\"1","jsonrpc":"2.0","error":{}} junk {"jsonrpc":"2.0","id":1e3,"result":1}`))
	f.Fuzz(func(t *testing.T, stream []byte) {
		m := newMonitor("s", nil)
		m.refuses = true
		_, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		m.await("tools/call", cancel)
		defer m.release("tools/call")
		for _, id := range []string{`1`, `"1"`, `1000`} {
			m.checkLine(mcpsession.Out, []byte(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call"}`), false, true)
		}
		flush := observerFunc(func(*frameInfo) { m.flush() })
		tap := newTapReader(strings.NewReader(string(stream)), observers{m, newFrameLog("s"), flush}, 1<<10)
		got, _ := io.ReadAll(tap)
		for _, line := range strings.Split(strings.TrimSuffix(string(got), "\n"), "\n") {
			if len(got) > 0 && !json.Valid([]byte(line)) {
				t.Errorf("the protocol read %q, not JSON", line)
			}
		}
	})
}
