package wire

import (
	"testing"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

// A server's request that reuses an id mcplens sent before (roots/list
// id 0 after initialize id 0), and a reconnect that starts the ids again,
// are never paired with the earlier frames: each response is linked to the
// request it answers, with that request's latency.
func TestFrameLinksAcrossReconnect(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	frame := func(ms float64, dir mcpsession.Direction, body string) mcpsession.Frame {
		return mcpsession.Frame{Server: "ev", At: t0.Add(time.Duration(ms * float64(time.Millisecond))), Dir: dir, Bytes: []byte(body), Size: len(body)}
	}
	frames := []mcpsession.Frame{
		frame(0, mcpsession.Out, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`),
		frame(1, mcpsession.In, `{"jsonrpc":"2.0","id":0,"result":{}}`),
		frame(30000, mcpsession.Out, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`), // reconnected
		frame(30002, mcpsession.In, `{"jsonrpc":"2.0","id":0,"result":{}}`),
		frame(32000, mcpsession.In, `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`),
		frame(32000.5, mcpsession.Out, `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`),
		frame(32001, mcpsession.In, `{"jsonrpc":"2.0","id":0,"result":{}}`), // answers nothing open
	}
	metas := metaCache{}.read(frames)
	tests := []struct {
		i       int
		link    int
		latency time.Duration
		method  string
	}{
		{0, 1, 0, "initialize"},
		{1, 0, time.Millisecond, "initialize"},
		{2, 3, 0, "initialize"},
		{3, 2, 2 * time.Millisecond, "initialize"},
		{4, 5, 0, "roots/list"},
		{5, 4, 500 * time.Microsecond, "roots/list"},
		{6, -1, 0, ""},
	}
	for _, tc := range tests {
		m := metas[tc.i]
		if m.link != tc.link || m.latency != tc.latency || m.method != tc.method {
			t.Errorf("frame %d: link %d, latency %v, method %q; want %d, %v, %q", tc.i, m.link, m.latency, m.method, tc.link, tc.latency, tc.method)
		}
	}
}

// The rounds of a multi-round request: a tools/call sent again with
// inputResponses is its exchange's round 2, then 3; a new call of the same
// tool starts again, and another tool's rounds are its own.
func TestFrameRounds(t *testing.T) {
	frame := func(body string) mcpsession.Frame {
		return mcpsession.Frame{Server: "s", Dir: mcpsession.Out, Bytes: []byte(body), Size: len(body)}
	}
	call := func(id int, tool string, again bool) mcpsession.Frame {
		extra := ""
		if again {
			extra = `,"inputResponses":{"a":{}},"requestState":"x"`
		}
		return frame(`{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"` + tool + `"` + extra + `}}`)
	}
	frames := []mcpsession.Frame{call(1, "ask", false), call(2, "ask", true), call(3, "other", false), call(4, "ask", true), call(5, "ask", false),
		frame(`{"jsonrpc":"2.0","id":"u","method":"tasks/update","params":{"taskId":"t","inputResponses":{}}}`)}
	want := []int{0, 2, 0, 3, 0, 0}
	for i, m := range (metaCache{}).read(frames) {
		if m.round != want[i] {
			t.Errorf("frame %d: round %d, want %d", i, m.round, want[i])
		}
	}
}
