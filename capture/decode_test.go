package capture

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

// TestDecoder reads a recording by hand: a paged listing joined, a batch,
// an answer that is an error, and lines that are not frames.
func TestDecoder(t *testing.T) {
	lines := []string{
		`{"format":"mcplens-tap","version":1,"server":"a","t":"2026-12-01T10:00:00Z","command":["srv","--x"]}`,
		`{"t":"2026-12-01T10:00:01Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"claude-code","version":"2.1.0"},"capabilities":{"roots":{"listChanged":true},"elicitation":{}}}}}`,
		`{"t":"2026-12-01T10:00:01.5Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"srv","version":"9"}}}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"one"}],"nextCursor":"p2"}}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"p2"}}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"two"}]}}}`,
		`{"t":"2026-12-01T10:00:03Z","server":"a","dir":"stderr","text":"log line"}`,
		`{"t":"2026-12-01T10:00:03Z","server":"a","dir":"c2s","frame":[{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"one","arguments":{"q":1}}},{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"two"}}]}`,
		`{"t":"2026-12-01T10:00:03.25Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":4,"result":{"content":[],"isError":true}}}`,
		`{"t":"2026-12-01T10:00:04Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"no such tool"}}}`,
		`{"t":"2026-12-01T10:00:04.5Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":6,"result":{"content":[]}}}`,
		`{"t":"2026-12-01T10:00:04.4Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"one"}}}`,
		`{"t":"2026-12-01T10:00:05Z","server":"a","dropped":3}`,
		`not json`,
	}
	d := NewDecoder()
	var kinds []Kind
	for _, l := range lines {
		for _, ob := range d.Line([]byte(l)) {
			kinds = append(kinds, ob.Kind)
		}
	}
	c := d.Capture()
	if len(c.Servers) != 1 {
		t.Fatalf("servers %+v, want one", c.Servers)
	}
	sv := c.Servers[0]
	var names []string
	for _, tl := range sv.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "one,two" || !sv.Listed {
		t.Errorf("tools %q (listed %v), want one,two", got, sv.Listed)
	}
	if sv.Client.Name != "claude-code" || sv.ServerName != "srv" || strings.Join(sv.Capabilities, " ") != "elicitation roots(listChanged)" || sv.Dropped != 3 {
		t.Errorf("server %+v", sv)
	}
	if len(c.Calls) != 3 || !c.Calls[2].Answered || c.Calls[2].Latency.Milliseconds() != 100 {
		t.Errorf("a call answered in the recording before it was made: %+v", c.Calls)
	}
	if !c.Calls[0].IsError || c.Calls[0].Latency.Milliseconds() != 250 || c.Calls[1].Error != "no such tool" || string(c.Calls[0].Args) != `{"q":1}` {
		t.Errorf("calls %+v %+v", c.Calls[0], c.Calls[1])
	}
	want := []Kind{Tapped, Initialize, Initialized, Listed, Listed, CallMade, CallMade, CallAnswered, CallAnswered, CallMade, CallAnswered}
	if len(kinds) != len(want) {
		t.Errorf("observations %v, want %v", kinds, want)
	}
	if _, p, ok := c.Client(); !ok || p.Name != "claude-code" {
		t.Errorf("client profile %v, %v", p.Key(), ok)
	}
	if got := strings.Join(sv.Stderr, "|"); got != "log line" {
		t.Errorf("stderr %q, want the recorded line", got)
	}
}

// TestOrdered: a capture's servers in a config's order, those it does not
// list after, as first seen; the capture itself keeps its order.
func TestOrdered(t *testing.T) {
	d := NewDecoder()
	for _, label := range []string{"c", "x", "a", "b"} {
		d.Line([]byte(`{"format":"mcplens-tap","version":1,"server":"` + label + `","t":"2026-12-01T10:00:00Z"}`))
	}
	c := d.Capture()
	labels := func(c *Capture) string {
		var out []string
		for _, sv := range c.Servers {
			out = append(out, sv.Label)
		}
		return strings.Join(out, ",")
	}
	if got := labels(c.Ordered([]string{"a", "b", "c"})); got != "a,b,c,x" {
		t.Errorf("ordered %s, want a,b,c,x", got)
	}
	if got := labels(c); got != "c,x,a,b" {
		t.Errorf("the capture itself became %s", got)
	}
}

// TestEventsFailedStderr: a recorded server that never listed its tools
// fails with the recording's stderr tail, as a live server that failed
// shows its own.
func TestEventsFailedStderr(t *testing.T) {
	d := NewDecoder()
	for _, l := range []string{
		`{"format":"mcplens-tap","version":1,"server":"broken","t":"2026-12-01T10:00:00Z","command":["srv"]}`,
		`{"t":"2026-12-01T10:00:01Z","server":"broken","dir":"stderr","text":"boom: missing API_KEY"}`,
	} {
		d.Line([]byte(l))
	}
	evs := d.Capture().Events()
	if last := evs[len(evs)-1]; last.State != mcpsession.Failed || last.Stderr != "boom: missing API_KEY" {
		t.Errorf("last event %+v, want broken failed with its stderr", last)
	}
}

// TestPendingBounded: a client whose requests go unanswered does not grow
// the decoder without bound; a later request is still paired.
func TestPendingBounded(t *testing.T) {
	d := NewDecoder()
	d.Line([]byte(`{"format":"mcplens-tap","version":1,"server":"a","t":"2026-12-01T10:00:00Z"}`))
	for i := range 3 * maxPending {
		d.Line(fmt.Appendf(nil, `{"t":"2026-12-01T10:00:01Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x"}}}`, i))
		if len(d.pending) > maxPending {
			t.Fatalf("%d requests pending", len(d.pending))
		}
	}
	last := 3*maxPending - 1
	d.Line(fmt.Appendf(nil, `{"t":"2026-12-01T10:00:02Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":%d,"result":{}}}`, last))
	if c := d.Capture().Calls; !c[len(c)-1].Answered {
		t.Error("the last call was not paired with its answer")
	}
}

// TestDecoderStateless reads a proxied streamable HTTP session of
// 2026-07-28: server/discover is its handshake (the client's identity,
// revision and capabilities in _meta, declaring MCP Apps; the server's
// name and capabilities in the answer), a tool whose x-mcp-header the
// client rejects is marked so, and the events say the client hosts apps.
func TestDecoderStateless(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-ai","version":"1.0"},` +
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}}`
	lines := []string{
		`{"format":"mcplens-tap","version":1,"server":"h","t":"2026-12-01T10:00:00Z","upstream":"https://mcp.example.com/mcp"}`,
		`{"t":"2026-12-01T10:00:01Z","server":"h","dir":"c2s","frame":{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}}`,
		`{"t":"2026-12-01T10:00:01Z","server":"h","dir":"s2c","frame":{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],` +
			`"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"remote","version":"3.1"}}}}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"h","dir":"c2s","frame":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}}`,
		`{"t":"2026-12-01T10:00:02Z","server":"h","dir":"s2c","frame":{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"ok","inputSchema":{"type":"object"}},` +
			`{"name":"bad","inputSchema":{"type":"object","properties":{"r":{"type":"object","x-mcp-header":"Region"}}}}]}}}`,
	}
	d := NewDecoder()
	for _, l := range lines {
		d.Line([]byte(l))
	}
	c := d.Capture()
	sv := c.Servers[0]
	if !sv.Initialized || sv.Client.Name != "claude-ai" || sv.ClientProtocol != "2026-07-28" || !sv.HostsApps {
		t.Errorf("client %+v at %q, apps %v; want claude-ai at 2026-07-28 hosting apps", sv.Client, sv.ClientProtocol, sv.HostsApps)
	}
	if sv.Protocol != "2026-07-28" || sv.ServerName != "remote" || sv.ServerVersion != "3.1" || !strings.Contains(strings.Join(sv.Facts.Capabilities, " "), "tools") {
		t.Errorf("server %q %q at %q, facts %+v; want remote 3.1 at 2026-07-28 with tools", sv.ServerName, sv.ServerVersion, sv.Protocol, sv.Facts)
	}
	if len(sv.Tools) != 2 || sv.Tools[0].Rejected != "" || !strings.Contains(sv.Tools[1].Rejected, "x-mcp-header") {
		t.Errorf("tools %+v; want bad rejected for its x-mcp-header, ok not", sv.Tools)
	}
	var ready mcpsession.Event
	c.EachEvent(func(ev mcpsession.Event) {
		if ev.State == mcpsession.Ready {
			ready = ev
		}
	})
	if !ready.HostsApps || ready.Protocol != "2026-07-28" {
		t.Errorf("ready event hosts apps %v at %q, want true at 2026-07-28", ready.HostsApps, ready.Protocol)
	}
}
