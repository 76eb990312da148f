package loader

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

func TestMonitor(t *testing.T) {
	firsts := 0
	m := newMonitor("s", func() { firsts++ })
	steps := []struct {
		dir     mcpsession.Direction
		line    string
		junk    bool
		problem string
	}{
		{mcpsession.Out, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, false, ""},
		{mcpsession.In, `{"jsonrpc":"2.0","id":1,"result":{}}`, false, ""},
		{mcpsession.In, `{"jsonrpc":"2.0","id":1,"result":{}}`, false, "answers id 1, which no request is waiting for"},
		{mcpsession.In, `{"jsonrpc":"2.0","id":9999,"result":{}}`, false, "answers id 9999, which no request is waiting for"},
		{mcpsession.Out, `{"jsonrpc":"2.0","id":"list-1","method":"tools/list"}`, false, ""},
		{mcpsession.In, `{"jsonrpc":"2.0","id":"list-1","result":{"tools":[]}}`, false, ""},
		{mcpsession.Out, `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`, false, ""},
		{mcpsession.Out, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, false, ""},
		{mcpsession.In, `{"jsonrpc":"2.0","id":2.0,"result":{}}`, false, ""}, // late, after the cancel: no fault
		{mcpsession.In, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, false, ""},
		{mcpsession.In, `{"jsonrpc":"2.0","id":7,"method":"roots/list"}`, false, ""},
		{mcpsession.In, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, false, ""},
		{mcpsession.In, `[{"jsonrpc":"2.0","method":"x"}]`, false, "not a JSON-RPC message: an array, not an object"},
		{mcpsession.In, `{"jsonrpc":"1.0","id":1,"result":{}}`, false, `not a JSON-RPC 2.0 message: "jsonrpc" is "1.0"`},
		{mcpsession.In, `{"id":1,"result":{}}`, false, `not a JSON-RPC 2.0 message: no "jsonrpc" member`},
		{mcpsession.In, `{"jsonrpc":"2.0"}`, false, "malformed: neither a request, a notification nor a response"},
		{mcpsession.In, `{"jsonrpc":"2.0","id":3,"result":{},"error":{}}`, false, "malformed: a response with both a result and an error"},
		{mcpsession.In, `{"jsonrpc":"2.0","result":{}}`, false, "malformed: a response without an id"},
		{mcpsession.In, `{"jsonrpc":"2.0","id":{"x":1},"result":{}}`, false, "malformed: the id is an object, not a string or a number"},
		{mcpsession.In, `{"jsonrpc":"2.0","method":5}`, false, "malformed: method is a number, not a string"},
		{mcpsession.In, `banner`, true, ""},
	}
	for i, st := range steps {
		if got := m.checkLine(st.dir, []byte(st.line), st.junk, !st.junk && json.Valid([]byte(st.line))); got != st.problem {
			t.Errorf("step %d: checkLine(%s, %s) = %q, want %q", i, st.dir, st.line, got, st.problem)
		}
	}
	m.listed("")
	m.listed(`tools/list page 3: nextCursor "A" was already followed; stopped there`)
	var kinds []string
	for _, f := range m.list() {
		if f.Kind != "protocol" || f.Server != "s" {
			t.Errorf("finding %+v, want kind protocol on s", f)
		}
		kinds = append(kinds, f.Evidence[:min(30, len(f.Evidence))])
	}
	want := []string{"answers id 1, which no request", "not a JSON-RPC message: an arr", "stdout carries text that is no", "tools/list page 3: nextCursor "}
	if strings.Join(kinds, "|") != strings.Join(want, "|") {
		t.Errorf("findings %q, want the first of each kind: %q", kinds, want)
	}
	if firsts != 4 {
		t.Errorf("first called %d times, want once per kind (4)", firsts)
	}
}
