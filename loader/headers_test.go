package loader_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/headertest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// headerTools are the tools of the header tests: one whose parameters are
// mirrored, one with a name that is not plain ASCII, and one a client
// rejects for a duplicate x-mcp-header.
const headerTools = `[
 {"name":"route","inputSchema":{"type":"object","properties":{
   "region":{"type":"string","x-mcp-header":"Region"},
   "priority":{"type":"integer","x-mcp-header":"Priority"},
   "verbose":{"type":"boolean","x-mcp-header":"Verbose"},
   "debug":{"type":"boolean","x-mcp-header":"Debug"},
   "greeting":{"type":"string","x-mcp-header":"Greeting"},
   "padded":{"type":"string","x-mcp-header":"Padded"},
   "lines":{"type":"string","x-mcp-header":"Lines"},
   "tab":{"type":"string","x-mcp-header":"Tab"},
   "sentinel":{"type":"string","x-mcp-header":"Sentinel"},
   "empty":{"type":"string","x-mcp-header":"Empty"},
   "method":{"type":"string","x-mcp-header":"Method"},
   "big":{"type":"integer","x-mcp-header":"Big"},
   "nested":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
   "query":{"type":"string"},
   "ratio":{"type":"number"}}}},
 {"name":"wetter-für-heute","inputSchema":{"type":"object"}},
 {"name":"evil\r\nX-Injected: 1","inputSchema":{"type":"object"}},
 {"name":"twice","inputSchema":{"type":"object","properties":{
   "a":{"type":"string","x-mcp-header":"Dup"},"b":{"type":"string","x-mcp-header":"dup"}}}}
]`

// headerSession connects to the header server and waits for it to be ready.
func headerSession(t *testing.T, srv *headertest.Server) (*loader.Session, mcpsession.Event) {
	t.Helper()
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "hdr", Transport: config.TransportHTTP, URL: srv.URL}}}
	s := open(t, cfg, loader.Options{Handshake: eraHandshake(model.Revision20260728)})
	_, last := settle(t, s, cfg)
	ev := last["hdr"]
	if ev.State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", ev)
	}
	return s, ev
}

// absent is a header wantHeaders wants not sent.
const absent = "\x00absent"

// wantHeaders checks the standard headers of the last request of method:
// each of want exactly (absent: none), and no Mcp-Param-*
// header beyond those want names.
func wantHeaders(t *testing.T, srv *headertest.Server, method string, want map[string]string) {
	t.Helper()
	req, ok := srv.Last(method)
	if !ok {
		t.Fatalf("the server got no %s", method)
	}
	for k, v := range want {
		got, has := req.Header[http.CanonicalHeaderKey(k)]
		switch {
		case v == absent && has:
			t.Errorf("%s: header %s = %q, want none", method, k, got)
		case v != absent && (len(got) != 1 || got[0] != v):
			t.Errorf("%s: header %s = %q, want %q", method, k, got, v)
		}
	}
	for k := range req.Header {
		if strings.HasPrefix(k, "Mcp-Param-") {
			if _, named := want[k]; !named {
				t.Errorf("%s: unexpected header %s = %q", method, k, req.Header[k])
			}
		}
	}
}

// TestStandardHeaders: on a stateless connection every request carries
// MCP-Protocol-Version, Mcp-Method and, where the method names something,
// Mcp-Name; a call mirrors its x-mcp-header arguments into Mcp-Param-*,
// encoded by the specification's rule, and leaves out the absent, the
// null, and the integer past 2^53-1.
func TestStandardHeaders(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: headerTools})
	s, ev := headerSession(t, srv)
	if ev.Protocol != model.Revision20260728 {
		t.Fatalf("Protocol = %q, want 2026-07-28", ev.Protocol)
	}
	wantHeaders(t, srv, "server/discover", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover", "Mcp-Name": absent})
	wantHeaders(t, srv, "tools/list", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list", "Mcp-Name": absent})

	args := `{"region":"us-west1","priority":42,"verbose":null,"debug":true,"greeting":"Hello, 世界",` +
		`"padded":" padded ","lines":"line1\r\nline2","tab":"a\tb","sentinel":"=?base64?literal?=","empty":"",` +
		`"method":"m","big":9007199254740993,"nested":{"zone":"z1"},"query":"SELECT 1","ratio":0.5}`
	if _, err := s.Call(context.Background(), "hdr", "route", json.RawMessage(args)); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "tools/call", map[string]string{
		"MCP-Protocol-Version": "2026-07-28",
		"Mcp-Method":           "tools/call",
		"Mcp-Name":             "route",
		"Mcp-Param-Region":     "us-west1",
		"Mcp-Param-Priority":   "42",
		"Mcp-Param-Debug":      "true",
		"Mcp-Param-Greeting":   "=?base64?SGVsbG8sIOS4lueVjA==?=",
		"Mcp-Param-Padded":     "=?base64?IHBhZGRlZCA=?=",
		"Mcp-Param-Lines":      "=?base64?bGluZTENCmxpbmUy?=",
		"Mcp-Param-Tab":        "=?base64?YQli?=",
		"Mcp-Param-Sentinel":   "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"Mcp-Param-Empty":      "",
		"Mcp-Param-Method":     "m",
		"Mcp-Param-Zone":       "z1",
	})

	if _, err := s.Call(context.Background(), "hdr", "wetter-für-heute", nil); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "tools/call", map[string]string{"Mcp-Name": "=?base64?d2V0dGVyLWbDvHItaGV1dGU=?="})

	// A name that would split the header is carried encoded, whole.
	if _, err := s.Call(context.Background(), "hdr", "evil\r\nX-Injected: 1", nil); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "tools/call", map[string]string{"Mcp-Name": "=?base64?ZXZpbA0KWC1JbmplY3RlZDogMQ==?=", "X-Injected": absent})

	if _, err := s.ReadResource(context.Background(), "hdr", headertest.ResourceURI); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "resources/read", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read",
		"Mcp-Name": "=?base64?ZmlsZTovLy90bXAvYSBiL8OpLnR4dA==?="})

	if _, err := s.GetPrompt(context.Background(), "hdr", headertest.PromptName, nil); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "prompts/get", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/get", "Mcp-Name": "greet"})

	// Every request the server got carries the revision and its method.
	for _, req := range srv.Requests() {
		if req.Header.Get("Mcp-Protocol-Version") != "2026-07-28" || req.Header.Get("Mcp-Method") != req.Method {
			t.Errorf("%s: MCP-Protocol-Version %q, Mcp-Method %q", req.Method, req.Header.Get("Mcp-Protocol-Version"), req.Header.Get("Mcp-Method"))
		}
	}
}

// TestRejectedToolOverHTTP: the listing marks the tool whose x-mcp-header
// annotations break the rules, with the reason; calling it anyway (as
// call --no-validate does) mirrors nothing.
func TestRejectedToolOverHTTP(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: headerTools})
	s, ev := headerSession(t, srv)
	var rejected []string
	for _, tool := range ev.Tools {
		if tool.Rejected != "" {
			rejected = append(rejected, tool.Name+": "+tool.Rejected)
		}
	}
	if len(rejected) != 1 || !strings.HasPrefix(rejected[0], `twice: rejected for its x-mcp-header: property b: x-mcp-header "dup" repeats "Dup"`) {
		t.Fatalf("rejected = %q", rejected)
	}
	if _, err := s.Call(context.Background(), "hdr", "twice", json.RawMessage(`{"a":"x","b":"y"}`)); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "tools/call", map[string]string{"Mcp-Name": "twice"})
}

// TestLegacyHeaders: a server that refuses server/discover gets the
// fallback initialize with MCP-Protocol-Version of the revision asked,
// every later request the revision settled on, and none of the headers
// 2026-07-28 added; nor does it reject any tool.
func TestLegacyHeaders(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: headerTools, Legacy: true})
	s, ev := headerSession(t, srv)
	if ev.Protocol != model.Revision20251125 {
		t.Fatalf("Protocol = %q, want the fallback 2025-11-25", ev.Protocol)
	}
	for _, tool := range ev.Tools {
		if tool.Rejected != "" {
			t.Errorf("%s rejected at 2025-11-25: %s", tool.Name, tool.Rejected)
		}
	}
	if _, err := s.Call(context.Background(), "hdr", "route", json.RawMessage(`{"region":"us-west1"}`)); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "server/discover", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"})
	for _, m := range []string{"initialize", "notifications/initialized", "tools/list", "tools/call"} {
		wantHeaders(t, srv, m, map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Method": absent, "Mcp-Name": absent})
	}
}

// TestConfigHeadersReplaced: a server's config cannot make a header
// disagree with the body: its Mcp-Method and Mcp-Param-* are replaced by
// the body's, or dropped when the body gives no value.
func TestConfigHeadersReplaced(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: headerTools})
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "hdr", Transport: config.TransportHTTP, URL: srv.URL,
		Headers: []config.Header{{Name: "Mcp-Method", Value: "forged"}, {Name: "mcp-param-region", Value: "forged"}, {Name: "Mcp-Name", Value: "forged"}}}}}
	s := open(t, cfg, loader.Options{Handshake: eraHandshake(model.Revision20260728)})
	if _, last := settle(t, s, cfg); last["hdr"].State != mcpsession.Ready {
		t.Fatalf("event = %+v", last["hdr"])
	}
	if _, err := s.Call(context.Background(), "hdr", "route", json.RawMessage(`{"priority":1}`)); err != nil {
		t.Fatal(err)
	}
	wantHeaders(t, srv, "tools/call", map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "route", "Mcp-Param-Priority": "1", "Mcp-Param-Region": absent})
	wantHeaders(t, srv, "tools/list", map[string]string{"Mcp-Method": "tools/list", "Mcp-Name": absent, "Mcp-Param-Region": absent})
}
