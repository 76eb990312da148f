package loader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// gatedTools are the tools server-everything registers only for a client
// that declares roots, sampling and elicitation.
var gatedTools = []string{"get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"}

// openEverything connects to server-everything over stdio with opts and
// returns the session once it is Ready, with its tools.
func openEverything(t *testing.T, opts loader.Options) (*loader.Session, []string) {
	t.Helper()
	entry := everythingEntry(t)
	cfg := &config.Config{Servers: []config.ServerSpec{{
		Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"},
	}}}
	s := loader.Open(cfg, opts)
	t.Cleanup(func() { s.Close() })
	_, last := settle(t, s, cfg)
	ev := last["everything"]
	if ev.State != mcpsession.Ready {
		t.Fatalf("event = %+v (stderr %s), want Ready", ev, s.Stderr("everything"))
	}
	return s, toolNames(ev.Tools)
}

// initializeFrame returns the initialize request as it was written.
func initializeFrame(t *testing.T, s *loader.Session) []byte {
	t.Helper()
	for _, f := range s.FrameLog("everything").Frames() {
		if m, _ := method(t, f.Bytes); f.Dir == mcpsession.Out && m == "initialize" {
			return f.Bytes
		}
	}
	t.Fatal("no initialize frame in the frame log")
	return nil
}

func mustClient(t *testing.T, name string) model.Client {
	t.Helper()
	c, err := model.ClientNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEverythingNeutralHandshake: as itself, mcplens declares nothing and
// server-everything hides the tools that need a capability.
func TestEverythingNeutralHandshake(t *testing.T) {
	s, names := openEverything(t, loader.Options{})
	for _, gated := range gatedTools {
		if slices.Contains(names, gated) {
			t.Errorf("tools %q include %q under the neutral handshake", names, gated)
		}
	}
	init := initializeFrame(t, s)
	for _, want := range []string{
		`"protocolVersion":"2025-11-25"`,
		`"clientInfo":{"name":"mcplens","version":"dev"}`,
		`"capabilities":{}`,
	} {
		if !bytes.Contains(init, []byte(want)) {
			t.Errorf("initialize frame %s lacks %s", init, want)
		}
	}
	t.Logf("neutral: %d tools", len(names))
}

// TestEverythingAsVSCode: as VS Code, mcplens declares roots, sampling and
// elicitation, sees the tools that need them, and answers the server's
// requests: roots with the configured folders, elicitation and sampling
// declined by default.
func TestEverythingAsVSCode(t *testing.T) {
	root := t.TempDir()
	s, names := openEverything(t, loader.Options{
		Handshake: mustClient(t, "vscode").Handshake,
		Answers:   loader.Answers{Roots: []string{root}},
	})
	for _, gated := range gatedTools {
		if !slices.Contains(names, gated) {
			t.Errorf("tools %q lack %q under the vscode handshake", names, gated)
		}
	}
	t.Logf("vscode: %d tools", len(names))
	init := initializeFrame(t, s)
	for _, want := range []string{
		`"clientInfo":{"name":"Visual Studio Code","version":"1.105.0"}`,
		`"capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}},` +
			`"tasks":{"list":{},"cancel":{},"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}}}`,
	} {
		if !bytes.Contains(init, []byte(want)) {
			t.Errorf("initialize frame %s lacks %s", init, want)
		}
	}

	res := call(t, s, "get-roots-list", `{}`)
	if want := "file://" + root; !strings.Contains(res, want) {
		t.Errorf("get-roots-list = %s, want the configured root %s", res, want)
	}
	if res := call(t, s, "trigger-elicitation-request", `{}`); !strings.Contains(res, "User declined") {
		t.Errorf("trigger-elicitation-request = %s, want it declined", res)
	}
	res = call(t, s, "trigger-sampling-request", `{"prompt":"hello"}`)
	if !strings.Contains(res, "User rejected sampling request") {
		t.Errorf("trigger-sampling-request = %s, want it rejected", res)
	}
	// The requests and the answers are frames like any other.
	var requests, answers []string
	for _, f := range s.FrameLog("everything").Frames() {
		m, id := method(t, f.Bytes)
		switch {
		case f.Dir == mcpsession.In && m != "" && id != nil:
			requests = append(requests, m)
		case f.Dir == mcpsession.Out && m == "" && id != nil:
			answers = append(answers, string(f.Bytes))
		}
	}
	for _, m := range []string{"roots/list", "elicitation/create", "sampling/createMessage"} {
		if !slices.Contains(requests, m) {
			t.Errorf("server requests in the frame log %q lack %s", requests, m)
		}
	}
	if !slices.ContainsFunc(answers, func(a string) bool { return strings.Contains(a, `"action":"decline"`) }) ||
		!slices.ContainsFunc(answers, func(a string) bool { return strings.Contains(a, `"code":-1,`) }) {
		t.Errorf("answers in the frame log %q lack the declined elicitation or the rejected sampling", answers)
	}
}

// TestEverythingElicitAcceptDefaults: accepting an elicitation as offered
// sends each field's default.
func TestEverythingElicitAcceptDefaults(t *testing.T) {
	s, _ := openEverything(t, loader.Options{
		Handshake: mustClient(t, "vscode").Handshake,
		Answers:   loader.Answers{Elicit: loader.ElicitAcceptDefaults},
	})
	res := call(t, s, "trigger-elicitation-request", `{}`)
	if !strings.Contains(res, "User provided the requested information") || !strings.Contains(res, "Monica") {
		t.Errorf("trigger-elicitation-request = %s, want it accepted with the defaults", res)
	}
}

// call calls a tool of server-everything and returns the text of its
// result (or of its error).
func call(t *testing.T, s *loader.Session, tool, args string) string {
	t.Helper()
	res, err := s.Call(context.Background(), "everything", tool, json.RawMessage(args))
	if err != nil {
		return err.Error() + " " + string(res.Response)
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	_ = json.Unmarshal(res.Result, &r)
	var texts []string
	for _, c := range r.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n")
}

// TestHandshakeOverHTTP: over streamable HTTP the handshake's headers go
// with every request, a config header of the same name wins, and the
// initialize body carries the profile's clientInfo.
func TestHandshakeOverHTTP(t *testing.T) {
	var fixed, overridden bodyLog
	h := fixed.wrap(t, server.NewStreamableHTTPServer(growServer()), "X-Mcp-Toolsets", "repos")
	ts := httptest.NewServer(overridden.wrap(t, h, "X-Client", "from-config"))
	t.Cleanup(ts.Close)
	cfg := remoteConfig("grow", config.TransportHTTP, ts.URL+"/mcp", config.Header{Name: "X-Client", Value: "from-config"})
	hs := mustClient(t, "codex").Handshake
	hs.Headers = []model.Header{{Name: "X-Mcp-Toolsets", Value: "repos"}, {Name: "X-Client", Value: "from-profile"}}
	s := open(t, cfg, loader.Options{Handshake: hs})
	_, last := settle(t, s, cfg)
	if ev := last["grow"]; ev.State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", ev)
	}
	for _, l := range []*bodyLog{&fixed, &overridden} {
		l.mu.Lock()
		if len(l.bad) > 0 {
			t.Errorf("requests without the header wanted: %q", l.bad)
		}
		l.mu.Unlock()
	}
	fixed.mu.Lock()
	defer fixed.mu.Unlock()
	want := `"clientInfo":{"name":"codex-mcp-client","version":"0.146.0","title":"Codex"}`
	if len(fixed.bodies) == 0 || !bytes.Contains(fixed.bodies[0], []byte(want)) ||
		!bytes.Contains(fixed.bodies[0], []byte(`"protocolVersion":"2025-06-18"`)) {
		t.Errorf("first body %s, want initialize with %s at 2025-06-18", fixed.bodies[0], want)
	}
}

// TestEverythingAsVSCodeOverHTTP: server requests arrive over streamable
// HTTP too, and are answered there.
func TestEverythingAsVSCodeOverHTTP(t *testing.T) {
	entry := everythingEntry(t)
	port := startEverything(t, entry, "streamableHttp")
	cfg := remoteConfig("everything", config.TransportHTTP, fmt.Sprintf("http://127.0.0.1:%d/mcp", port))
	root := t.TempDir()
	s := open(t, cfg, loader.Options{Handshake: mustClient(t, "vscode").Handshake, Answers: loader.Answers{Roots: []string{root}}})
	_, last := settle(t, s, cfg)
	if ev := last["everything"]; ev.State != mcpsession.Ready || !slices.Contains(toolNames(ev.Tools), "get-roots-list") {
		t.Fatalf("event = %+v, want Ready with get-roots-list", ev)
	}
	if res := call(t, s, "get-roots-list", `{}`); !strings.Contains(res, "file://"+root) {
		t.Errorf("get-roots-list = %s, want the configured root %s", res, root)
	}
}

// TestEveryProfileHandshake: every profile's initialize request carries
// its clientInfo, capabilities and protocol revision, byte for byte as
// written here from the profile's facts.
func TestEveryProfileHandshake(t *testing.T) {
	for _, c := range model.Clients() {
		t.Run(c.Key(), func(t *testing.T) {
			var log bodyLog
			ts := httptest.NewServer(log.wrap(t, server.NewStreamableHTTPServer(growServer()), "", ""))
			t.Cleanup(ts.Close)
			cfg := remoteConfig("grow", config.TransportHTTP, ts.URL+"/mcp")
			s := open(t, cfg, loader.Options{Handshake: c.Handshake})
			if _, last := settle(t, s, cfg); last["grow"].State != mcpsession.Ready {
				t.Fatalf("event = %+v, want Ready", last["grow"])
			}
			// The handshake is initialize, or on a stateless era the
			// server/discover probe, the same facts in its _meta.
			h := c.Handshake
			first, prefix := "initialize", ""
			if h.Era().Discover {
				first, prefix = "server/discover", "io.modelcontextprotocol/"
			}
			var init []byte
			for _, f := range s.FrameLog("grow").Frames() {
				if m, _ := method(t, f.Bytes); m == first && init == nil {
					init = f.Bytes
				}
			}
			info := fmt.Sprintf(`"%sclientInfo":{"name":%q,"version":%q`, prefix, h.ClientInfo.Name, h.ClientInfo.Version)
			if h.ClientInfo.Title != "" {
				info += fmt.Sprintf(`,"title":%q`, h.ClientInfo.Title)
			}
			caps := "capabilities"
			if prefix != "" {
				caps = "clientCapabilities"
			}
			for _, want := range []string{
				`"` + prefix + `protocolVersion":"` + h.ProtocolVersion + `"`,
				info + "}",
				`"` + prefix + caps + `":` + wantCapabilities(h.Capabilities),
			} {
				if !bytes.Contains(init, []byte(want)) {
					t.Errorf("%s %s lacks %s", first, init, want)
				}
			}
		})
	}
}

// wantCapabilities is the capabilities object as the specification spells
// it, in mcp-go's member order.
func wantCapabilities(c model.Capabilities) string {
	var members []string
	if c.Apps { // extensions comes first: mcp-go's member order
		members = append(members, `"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`)
	}
	if c.Roots != nil {
		if c.Roots.ListChanged {
			members = append(members, `"roots":{"listChanged":true}`)
		} else {
			members = append(members, `"roots":{}`)
		}
	}
	if c.Sampling {
		members = append(members, `"sampling":{}`)
	}
	if e := c.Elicitation; e != nil {
		var modes []string
		if e.Form {
			modes = append(modes, `"form":{}`)
		}
		if e.URL {
			modes = append(modes, `"url":{}`)
		}
		members = append(members, `"elicitation":{`+strings.Join(modes, ",")+`}`)
	}
	if t := c.Tasks; t != nil {
		var parts, requests []string
		if t.List {
			parts = append(parts, `"list":{}`)
		}
		if t.Cancel {
			parts = append(parts, `"cancel":{}`)
		}
		if t.Sampling {
			requests = append(requests, `"sampling":{"createMessage":{}}`)
		}
		if t.Elicitation {
			requests = append(requests, `"elicitation":{"create":{}}`)
		}
		if len(requests) > 0 {
			parts = append(parts, `"requests":{`+strings.Join(requests, ",")+`}`)
		}
		members = append(members, `"tasks":{`+strings.Join(parts, ",")+`}`)
	}
	return "{" + strings.Join(members, ",") + "}"
}
