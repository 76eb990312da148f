package apphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

func tool(name, meta string) model.Tool {
	return model.Tool{Name: name, NameOK: true, Raw: json.RawMessage(`{"name":"` + name + `"}`), App: model.AppOfMeta(json.RawMessage(meta))}
}

// options are a host's options over a server of three tools, whose calls
// and reads are counted.
func options(t *testing.T, html, mime string) (Options, *[]string) {
	var calls []string
	app := tool("show", `{"ui":{"resourceUri":"ui://s/app"}}`)
	page, _ := json.Marshal(map[string]any{"contents": []any{map[string]any{"uri": "ui://s/app", "mimeType": mime, "text": html,
		"_meta": map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []string{"https://api.example", "https://x; script-src *"}}}}}}})
	return Options{
		Server:    "s",
		Tool:      app,
		Tools:     []model.Tool{app, tool("state", `{"ui":{"visibility":["app"]}}`), tool("secret", `{"ui":{"visibility":["model"]}}`)},
		Resources: []model.Resource{{URI: "ui://s/app", MIMEType: model.AppMIMEType}},
		Read: func(_ context.Context, uri string) (json.RawMessage, error) {
			calls = append(calls, "read "+uri)
			return page, nil
		},
		Call: func(_ context.Context, wire string, _ json.RawMessage) (json.RawMessage, error) {
			calls = append(calls, "call "+wire)
			return json.RawMessage(`{"content":[]}`), nil
		},
		Log: mcpsession.NewFrameLog("s"),
	}, &calls
}

func TestStartRefuses(t *testing.T) {
	for _, tt := range []struct{ name, html, mime, want string }{
		{"wrong type", "<p>", "text/html", "not text/html;profile=mcp-app"},
		{"too large", strings.Repeat("x", MaxHTML+1), model.AppMIMEType, "over the host's"},
	} {
		o, _ := options(t, tt.html, tt.mime)
		if h, err := Start(context.Background(), o); err == nil || !strings.Contains(err.Error(), tt.want) {
			if h != nil {
				h.Close()
			}
			t.Errorf("%s: Start = %v, want %q", tt.name, err, tt.want)
		}
	}
	o, _ := options(t, "<p>", model.AppMIMEType)
	o.Read = func(context.Context, string) (json.RawMessage, error) { return nil, errors.New("boom") }
	if _, err := Start(context.Background(), o); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a failed read: %v", err)
	}
}

// TestBridgeChecks: the host relays only what a host may, and every
// message is a frame, a refused one with its reason.
func TestBridgeChecks(t *testing.T) {
	o, calls := options(t, "<p>", model.AppMIMEType)
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if csp, _ := h.Resources(); !strings.Contains(csp, "connect-src https://api.example;") || strings.Contains(csp, "script-src *") {
		t.Errorf("CSP %q: want the well-formed origin alone", csp)
	}
	ask := func(msg string) string {
		out := h.bridge.handle(context.Background(), []byte(msg))
		b, _ := json.Marshal(out)
		return string(b)
	}
	tests := []struct{ msg, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state"}}`, `"result":{"content":[]}`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"secret"}}`, `not visible to apps`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"other"}}`, `no tool`},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"state","arguments":[1]}}`, `must be an object`},
		{`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}`, `not a resource s lists`},
		{`{"jsonrpc":"2.0","id":6,"method":"ui/open-link","params":{"url":"https://evil.example"}}`, `refused: this host opens no links`},
		{`{"jsonrpc":"2.0","id":7,"method":"nope"}`, `method not found`},
		{`not json`, `{"deliver":null,"notices":null}`},
	}
	for _, tt := range tests {
		if got := ask(tt.msg); !strings.Contains(got, tt.want) {
			t.Errorf("%s => %s, want %q", tt.msg, got, tt.want)
		}
	}
	if strings.Join(*calls, ",") != "read ui://s/app,call state" {
		t.Errorf("the server was asked %q", *calls)
	}
	frames := o.Log.Frames()
	if len(frames) == 0 || frames[0].App != "show" {
		t.Fatalf("frames %+v", frames)
	}
	if f := frames[len(frames)-1]; f.Problem != "not a JSON-RPC 2.0 message" {
		t.Errorf("the last frame %+v, want refused as not JSON-RPC", f)
	}
	// A flood: past the burst, requests are refused, each a frame.
	refused := 0
	for i := 0; i < MessageBurst*2; i++ {
		if strings.Contains(ask(`{"jsonrpc":"2.0","id":9,"method":"ping"}`), "too many messages") {
			refused++
		}
	}
	if refused == 0 {
		t.Error("no message of a flood was refused")
	}
}

// TestRelayOnlyFromTheHostPage: the relay answers its own origin only,
// and refuses a message over its bound.
func TestRelayOnlyFromTheHostPage(t *testing.T) {
	o, _ := options(t, "<p>", model.AppMIMEType)
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	origin := strings.TrimSuffix(h.URL(), "/"+h.token+"/")
	post := func(origin, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, h.URL()+"rpc", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := post("null", `{"jsonrpc":"2.0","id":1,"method":"ping"}`); code != http.StatusForbidden {
		t.Errorf("origin null: %d, want 403", code)
	}
	if code, body := post(origin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); code != http.StatusOK || !strings.Contains(body, `"result":{}`) {
		t.Errorf("the host page's ping: %d %s", code, body)
	}
	if code, body := post(origin, `{"jsonrpc":"2.0","method":"x","params":"`+strings.Repeat("a", MaxMessage)+`"}`); code != http.StatusOK || !strings.Contains(body, "over the host's") {
		t.Errorf("a message over the bound: %d %s", code, body)
	}
	// The browser's CSP reports: bounded, kept as frames of the app's.
	report := func(body string) int {
		resp, err := http.Post(h.URL()+"csp", "application/csp-report", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if code := report(`{"csp-report":{"blocked-uri":"https://evil.example/x","effective-directive":"connect-src"}}`); code != http.StatusNoContent {
		t.Errorf("a report: %d", code)
	}
	if code := report(strings.Repeat("x", MaxReport+1)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a report over the bound: %d", code)
	}
	frames := o.Log.Frames()
	if f := frames[len(frames)-1]; f.App != "show" || f.Problem != "blocked by the app's CSP: connect-src https://evil.example/x" {
		t.Errorf("the report's frame: %+v", f)
	}
	h.Close()
	<-h.Done()
}

// TestAppArgumentsChecked: an app's tools/call whose arguments break the
// tool's input schema, or are over the bound, is refused with invalid
// params and its reason, a frame like every message, and the server sees
// no call; arguments that keep the schema go through.
func TestAppArgumentsChecked(t *testing.T) {
	o, calls := options(t, "<p>", model.AppMIMEType)
	move := tool("move", `{"ui":{"visibility":["app"]}}`)
	move.InputSchema = json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer","minimum":0}},"required":["x"],"additionalProperties":false}`)
	o.Tools = append(o.Tools, move)
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ask := func(msg string) string {
		b, _ := json.Marshal(h.bridge.handle(context.Background(), []byte(msg)))
		return string(b)
	}
	big := `{"x":1,"pad":"` + strings.Repeat("a", MaxArguments) + `"}`
	for _, tt := range []struct{ args, want string }{
		{`{"x":"one"}`, `"code":-32602,"message":"the arguments break the input schema of \"move\"; nothing was sent: /x: got string, want integer"`},
		{`{}`, `missing property 'x'`},
		{`{"x":-1,"y":2}`, `additional properties 'y' not allowed; /x: minimum: got -1, want 0`},
		{big, `over the host's 262144`},
		{`"x"`, `must be an object`},
	} {
		got := ask(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"move","arguments":` + tt.args + `}}`)
		if !strings.Contains(got, tt.want) {
			t.Errorf("arguments %.40s => %.300s, want %q", tt.args, got, tt.want)
		}
	}
	if strings.Join(*calls, ",") != "read ui://s/app" {
		t.Errorf("the server was asked %q, want no call", *calls)
	}
	if f := o.Log.Frames(); len(f) < 2 || f[len(f)-1].Dir != mcpsession.Out || f[len(f)-1].App != "show" || !strings.Contains(string(f[len(f)-1].Bytes), "must be an object") {
		t.Errorf("the refusal is not the last frame: %+v", f[len(f)-1])
	}
	if got := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"move","arguments":{"x":3}}}`); !strings.Contains(got, `"result":{"content":[]}`) {
		t.Errorf("good arguments => %s", got)
	}
	if strings.Join(*calls, ",") != "read ui://s/app,call move" {
		t.Errorf("the server was asked %q", *calls)
	}
}

// TestAppLinkAsked: with someone to ask, a link the app asks for is asked
// about while other messages go on; opened, the app gets {}, refused, an
// error with the reason; when the host stops, a question still open is
// refused.
func TestAppLinkAsked(t *testing.T) {
	o, _ := options(t, "<p>", model.AppMIMEType)
	asked := make(chan string)
	answers := make(chan error)
	o.OpenLink = func(ctx context.Context, url string) error {
		asked <- url
		select {
		case err := <-answers:
			return err
		case <-ctx.Done():
			return errors.New("nobody answered")
		}
	}
	var notices []string
	o.Notice = func(s string) { notices = append(notices, s) }
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	link := func(id int, url string) <-chan string {
		got := make(chan string, 1)
		go func() {
			b, _ := json.Marshal(h.bridge.handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":`+fmt.Sprint(id)+`,"method":"ui/open-link","params":{"url":"`+url+`"}}`)))
			got <- string(b)
		}()
		return got
	}
	for _, tt := range []struct {
		answer error
		want   string
	}{
		{nil, `{"id":1,"jsonrpc":"2.0","result":{}}`},
		{errors.New("declined by the user"), `"error":{"code":-32000,"message":"refused: declined by the user"}`},
	} {
		got := link(1, "https://example.com/a")
		if url := <-asked; url != "https://example.com/a" {
			t.Errorf("asked about %q", url)
		}
		// The question does not hold the host: a ping is answered meanwhile.
		if b, _ := json.Marshal(h.bridge.handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))); !strings.Contains(string(b), `"result":{}`) {
			t.Errorf("a ping while asking: %s", b)
		}
		answers <- tt.answer
		if r := <-got; !strings.Contains(r, tt.want) {
			t.Errorf("answer %v: the app got %s, want %s", tt.answer, r, tt.want)
		}
	}
	got := link(2, "https://example.com/b")
	<-asked
	h.Close()
	if r := <-got; !strings.Contains(r, "refused: nobody answered") {
		t.Errorf("the host stopped while asking: %s", r)
	}
	if len(notices) != 3 || !strings.HasSuffix(notices[0], "opened") || !strings.Contains(notices[1], "refused: declined by the user") {
		t.Errorf("notices %q", notices)
	}
}

// TestNoticeMaskedBeforeCut: a ui/message whose text carries a secret
// across the notice's 300-byte cut shows none of the secret: the notice
// is masked, then cut, in the host page's notices and in what Notice is
// told.
func TestNoticeMaskedBeforeCut(t *testing.T) {
	const secret = "sk-live-9f8e7d6c5b4a3f2e1d0c"
	o, _ := options(t, "<p>", model.AppMIMEType)
	var told []string
	o.Notice = func(s string) { told = append(told, s) }
	o.Mask = func(s string) string { return strings.ReplaceAll(s, secret, "****") }
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	const head = `{"role":"user","content":[{"type":"text","text":"`              // the params, as the notice quotes them
	for pad := 300 - len(head) - len(secret) + 1; pad < 300-len(head); pad += 3 { // the secret across the cut
		text := strings.Repeat("x", pad) + secret
		msg := `{"jsonrpc":"2.0","id":1,"method":"ui/message","params":` + head + text + `"}]}}`
		out := h.bridge.handle(context.Background(), []byte(msg))
		shown := strings.Join(append(out.Notices, told...), "\n")
		if len(out.Notices) == 0 || len(told) == 0 {
			t.Fatalf("pad %d: no notice of the message (notices %q, told %q)", pad, out.Notices, told)
		}
		for n := 6; n <= len(secret); n++ {
			if strings.Contains(shown, secret[:n]) {
				t.Fatalf("pad %d: a notice shows %q of the secret: %q", pad, secret[:n], shown)
			}
		}
		told = nil
	}
}

// TestReadCSPOtherThanListed: an app resource whose resources/list row
// declares one CSP and whose read contents another is hosted under the
// read one, and the user is told both, since the lint judged the listed
// one; a listing that declares the same, or nothing, says nothing.
func TestReadCSPOtherThanListed(t *testing.T) {
	for _, tt := range []struct {
		name, listed string
		told         bool
	}{
		{"narrower listing", `{"uri":"ui://s/app","_meta":{"ui":{"csp":{"connectDomains":["https://only.example"]}}}}`, true},
		{"same", `{"uri":"ui://s/app","_meta":{"ui":{"csp":{"connectDomains":["https://api.example"]}}}}`, false},
		{"none", `{"uri":"ui://s/app"}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, _ := options(t, "<p>", model.AppMIMEType)
			o.Resources[0].Raw = json.RawMessage(tt.listed)
			var told []string
			o.Notice = func(s string) { told = append(told, s) }
			h, err := Start(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if csp, _ := h.Resources(); !strings.Contains(csp, "connect-src https://api.example;") {
				t.Errorf("CSP %q: want the read contents' origin", csp)
			}
			got := strings.Join(told, "\n")
			if tt.told != (len(told) == 1 && strings.Contains(got, "connectDomains https://api.example") && strings.Contains(got, "connectDomains https://only.example")) {
				t.Errorf("told %q; want told of both CSPs: %v", told, tt.told)
			}
		})
	}
}
