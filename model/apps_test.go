package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func appTool(name, meta string) Tool {
	raw := `{"name":"` + name + `"`
	if meta != "" {
		raw += `,"_meta":` + meta
	}
	raw += "}"
	var m struct {
		Meta json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal([]byte(raw), &m)
	return Tool{Name: name, NameOK: true, Raw: json.RawMessage(raw), App: AppOfMeta(m.Meta)}
}

func TestAppOfMeta(t *testing.T) {
	tests := []struct {
		name, meta  string
		nilApp      bool
		forModel    bool
		forApp      bool
		uri, problm string
	}{
		{name: "none", meta: `{"x":1}`, nilApp: true, forModel: true, forApp: true},
		{name: "both by default", meta: `{"ui":{"resourceUri":"ui://a/b"}}`, forModel: true, forApp: true, uri: "ui://a/b"},
		{name: "app only", meta: `{"ui":{"resourceUri":"ui://a/b","visibility":["app"]}}`, forApp: true, uri: "ui://a/b"},
		{name: "model only", meta: `{"ui":{"visibility":["model"]}}`, forModel: true},
		{name: "legacy key", meta: `{"ui/resourceUri":"ui://old"}`, forModel: true, forApp: true, uri: "ui://old"},
		{name: "visibility not an array", meta: `{"ui":{"visibility":"app"}}`, forModel: true, forApp: true, problm: "not an array"},
		{name: "unknown visibility", meta: `{"ui":{"visibility":["user"]}}`, problm: `names "user"`},
		{name: "not ui scheme", meta: `{"ui":{"resourceUri":"https://x"}}`, forModel: true, forApp: true, uri: "https://x", problm: "not a ui://"},
		{name: "ui a string", meta: `{"ui":"x"}`, forModel: true, forApp: true, problm: "not an object"},
	}
	for _, tt := range tests {
		a := AppOfMeta(json.RawMessage(tt.meta))
		if (a == nil) != tt.nilApp {
			t.Fatalf("%s: AppOfMeta(%s) = %+v", tt.name, tt.meta, a)
		}
		if a.ForModel() != tt.forModel || a.ForApp() != tt.forApp {
			t.Errorf("%s: ForModel, ForApp = %v, %v, want %v, %v", tt.name, a.ForModel(), a.ForApp(), tt.forModel, tt.forApp)
		}
		if a == nil {
			continue
		}
		if a.ResourceURI != tt.uri || tt.problm == "" && a.Problem != "" || !strings.Contains(a.Problem, tt.problm) {
			t.Errorf("%s: uri %q problem %q, want %q and %q", tt.name, a.ResourceURI, a.Problem, tt.uri, tt.problm)
		}
	}
}

// TestAppOnlyPerClient: under a client that hosts apps the app-only tool is
// withheld with its reason and the server stays complete; under one that
// does not it is registered, with a note saying why.
func TestAppOnlyPerClient(t *testing.T) {
	tools := []Tool{
		appTool("show", `{"ui":{"resourceUri":"ui://a/app"}}`),
		appTool("state", `{"ui":{"resourceUri":"ui://a/app","visibility":["app"]}}`),
	}
	p, _ := PolicyNamed("claude-code")
	for _, hosts := range []bool{true, false} {
		reg := p.Apply([]Catalogue{{Server: "a", Tools: tools, HostsApps: hosts}})
		o := reg.Servers[0].Outcomes[1]
		_, live := reg.Lookup("mcp__a__state")
		switch {
		case hosts && (o.Kind != Filtered || live || !strings.Contains(o.Reason, "app only") || len(reg.Servers[0].Missing) != 0):
			t.Errorf("hosting: outcome %v %q, live %v, missing %v", o.Kind, o.Reason, live, reg.Servers[0].Missing)
		case !hosts && (!o.Live() || !live || !strings.Contains(o.Reason, "hosts no apps")):
			t.Errorf("not hosting: outcome %v %q, live %v", o.Kind, o.Reason, live)
		}
		want := map[bool]string{true: `with its app "ui://a/app", which the client shows`, false: `its app "ui://a/app" is not shown: the client hosts no apps`}[hosts]
		if show := reg.Servers[0].Outcomes[0]; !show.Live() || show.Reason != want {
			t.Errorf("hosts %v: the model-visible tool is %v %q, want the note %q", hosts, show.Kind, show.Reason, want)
		}
	}
	if tools[1].withheld != "" {
		t.Error("Apply wrote to the caller's tools")
	}
}

func TestAppFindings(t *testing.T) {
	res := func(uri, mime, desc, meta string) Resource {
		raw := `{"uri":"` + uri + `","mimeType":"` + mime + `"`
		if meta != "" {
			raw += `,"_meta":` + meta
		}
		return Resource{URI: uri, MIMEType: mime, Description: desc, Raw: json.RawMessage(raw + "}")}
	}
	tools := []Tool{
		appTool("ok", `{"ui":{"resourceUri":"ui://a/ok"}}`),
		appTool("missing", `{"ui":{"resourceUri":"ui://a/none"}}`),
		appTool("plain", `{"ui":{"resourceUri":"ui://a/plain"}}`),
		appTool("csp", `{"ui":{"resourceUri":"ui://a/csp"}}`),
		appTool("cam", `{"ui":{"resourceUri":"ui://a/cam"}}`),
		appTool("vis", `{"ui":{"visibility":7}}`),
	}
	resources := []Resource{
		res("ui://a/ok", AppMIMEType, "", `{"ui":{"csp":{"connectDomains":["https://api.example.com","wss://live.example.com:8443"]},"permissions":{"clipboardWrite":{}}}}`),
		res("ui://a/plain", "text/html", "", ""),
		res("ui://a/csp", AppMIMEType, "", `{"ui":{"csp":{"connectDomains":["https://x.example; script-src *","*"],"scriptDomains":[]}}}`),
		res("ui://a/cam", AppMIMEType, "a board", `{"ui":{"permissions":{"camera":{},"telepathy":{}}}}`),
	}
	tools[0].Description = "copies to the clipboard"
	fs := AppFindings("srv", tools, resources)
	want := map[string][]string{
		"missing": {"app-resource", "does not list"},
		"plain":   {"app-resource", `"text/html"`},
		"csp":     {"app-csp", "not an origin"},
		"cam":     {"app-permission", "camera"},
		"vis":     {"app-meta", "not an array"},
	}
	got := map[string]int{}
	for _, f := range fs {
		w, ok := want[f.Tool]
		if !ok {
			t.Errorf("unexpected finding %+v", f)
			continue
		}
		if f.Kind == w[0] && strings.Contains(f.Evidence, w[1]) {
			got[f.Tool]++
		}
	}
	for tool := range want {
		if got[tool] == 0 {
			t.Errorf("no %v finding for %s in %+v", want[tool], tool, fs)
		}
	}
	r := AppResourceOfMeta(resourceMeta(resources[2].Raw))
	if len(r.CSP["connectDomains"]) != 0 || len(r.Problems) != 3 {
		t.Errorf("a malformed origin reached the CSP: %+v", r)
	}
}

func TestValidOrigin(t *testing.T) {
	for s, want := range map[string]bool{
		"https://a.example": true, "http://127.0.0.1:9": true, "wss://*.example.com": true, "http://[::1]:80": true,
		"*": false, "https://a.example/path": false, "https://a b": false, "https://a;x": false, "'self'": false,
		"javascript://x": false, "https://a'": false, "": false,
	} {
		if got := ValidOrigin(s); got != want {
			t.Errorf("ValidOrigin(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestLocalOrigins: an origin on the user's machine or network, however
// a browser lets it be spelled, is kept and said to be one; others are not.
func TestLocalOrigins(t *testing.T) {
	for o, want := range map[string]bool{
		"http://localhost:5432": true, "https://api.localhost": true, "http://127.0.0.1:8080": true, "http://[::1]": true,
		"http://10.1.2.3": true, "https://192.168.0.1": true, "http://172.16.0.9": true, "http://169.254.169.254": true,
		"http://0.0.0.0:9": true, "http://2130706433": true, "http://0x7f.1": true, "http://127.1": true,
		"http://017700000001": true, "http://[::ffff:127.0.0.1]": true, "http://[fe80::1]": true,
		"https://api.example.com": false, "https://8.8.8.8": false, "https://1.1": false, "https://localhost.example": false,
		"https://256.1.1.1": false, "https://0x100000000": false,
	} {
		if !ValidOrigin(o) {
			t.Fatalf("ValidOrigin(%q) = false, want an origin to judge", o)
		}
		meta := []byte(`{"ui":{"csp":{"connectDomains":[` + QuoteJSON(o) + `]}}}`)
		r := AppResourceOfMeta(meta)
		said := len(r.Problems) == 1 && strings.Contains(r.Problems[0], "on the user's machine or network")
		if said != want || len(r.CSP["connectDomains"]) != 1 {
			t.Errorf("%s: problems %q, kept %q; want said local = %v, kept", o, r.Problems, r.CSP["connectDomains"], want)
		}
	}
}

// TestAppResourceBounded: 10,000 origins keep MaxAppOrigins, and 10,000
// malformed ones (over a kilobyte each) give a bounded account of themselves.
func TestAppResourceBounded(t *testing.T) {
	good, bad := make([]string, 10000), make([]string, 10000)
	for i := range good {
		good[i] = "https://h" + strings.Repeat("x", i%50) + ".example"
		bad[i] = strings.Repeat("; script-src *", 100)
	}
	meta, _ := json.Marshal(map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": good, "frameDomains": bad}}})
	r := AppResourceOfMeta(meta)
	if len(r.CSP["connectDomains"]) != MaxAppOrigins || len(r.CSP["frameDomains"]) != 0 {
		t.Errorf("kept %d connect and %d frame origins, want %d and 0", len(r.CSP["connectDomains"]), len(r.CSP["frameDomains"]), MaxAppOrigins)
	}
	if len(r.Problems) != maxAppProblems || !strings.Contains(r.Problems[maxAppProblems-1], "more problems") {
		t.Errorf("%d problems, want %d ending with how many more", len(r.Problems), maxAppProblems)
	}
	for _, p := range r.Problems {
		if len(p) > 300 {
			t.Errorf("a problem of %d bytes", len(p))
		}
	}
}
