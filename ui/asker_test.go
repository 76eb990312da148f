package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/internal/testkit/browsertest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// askerEnv makes the test binary an MCP server whose tools ask the client:
// book elicits a form, sample asks for a model's reply.
const askerEnv = "MCPLENS_TEST_ASKER"

// bookingSchema is a form with every kind of field: text, an integer with
// a default, a boolean, and an enum with titles (oneOf, SEP-1330).
const bookingSchema = `{"type":"object","properties":{
"name":{"type":"string","title":"Your name","description":"as on the ticket"},
"seats":{"type":"integer","title":"Seats","default":2},
"window":{"type":"boolean","title":"Window seat","default":true},
"class":{"type":"string","title":"Class","oneOf":[{"const":"eco","title":"Economy"},{"const":"biz","title":"Business"}],"default":"biz"}},
"required":["name","seats"]}`

// orderSchema has SEP-1330's multi-selects: one titled (items' anyOf),
// one untitled with a default (items' enum).
const orderSchema = `{"type":"object","properties":{
"meals":{"type":"array","title":"Meals","maxItems":2,"items":{"anyOf":[{"const":"veg","title":"Vegetarian"},{"const":"fish","title":"Fish"},{"const":"meat","title":"Meat"}]}},
"extras":{"type":"array","description":"paid","items":{"type":"string","enum":["bag","seat"]},"default":["seat"]}},
"required":["meals"]}`

// oddSchema hides terminal escapes and bidi overrides in every text a
// form shows: a property name, a title, a description, enum titles, a
// default.
const oddSchema = `{"type":"object","properties":{
"\u202eeman":{"type":"string","title":"T\u001b[31mred","description":"D\u001b]8;;http://x\u0007link","default":"v\u202ealue"},
"pick":{"type":"string","oneOf":[{"const":"a","title":"A\u001b[2J"},{"const":"b","title":"B"}]}},
"required":["pick"]}`

// tripSchema is an input schema with a required string, an integer with
// a default and a minimum, an enum, and an array of objects.
const tripSchema = `{"type":"object","properties":{
"city":{"type":"string","description":"where to"},
"days":{"type":"integer","minimum":1,"default":3},
"units":{"enum":["metric","imperial"]},
"stops":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
"required":["city"]}`

// serveAsker serves the asking tools over stdio.
func serveAsker() error {
	if os.Getenv(stderrEnv) != "" {
		chatter()
	}
	srv := server.NewMCPServer("asker", "1.0", server.WithElicitation())
	srv.EnableSampling()
	answer := func(v any, err error) (*mcp.CallToolResult, error) {
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		b, _ := json.Marshal(v)
		return mcp.NewToolResultText(string(b)), nil
	}
	srv.AddTool(mcp.NewTool("book"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
			Message: "Book the 9:40 to Lyon?", RequestedSchema: json.RawMessage(bookingSchema),
		}}))
	})
	srv.AddTool(mcp.NewTool("order"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
			Message: "Meals on board?", RequestedSchema: json.RawMessage(orderSchema),
		}}))
	})
	srv.AddTool(mcp.NewToolWithRawSchema("odd", "a hostile schema", json.RawMessage(oddSchema)), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Params.Arguments, nil)
	})
	srv.AddTool(mcp.NewTool("login"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(srv.RequestURLElicitation(ctx, server.ClientSessionFromContext(ctx), "e1", "https://example.com/login", "Sign in to continue."))
	})
	srv.AddTool(mcp.NewTool("open", mcp.WithString("url")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(srv.RequestURLElicitation(ctx, server.ClientSessionFromContext(ctx), "e2", req.GetString("url", ""), "Open this."))
	})
	srv.AddTool(mcp.NewTool("shout"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "shouted after the start")
		return mcp.NewToolResultText("shouted"), nil
	})
	srv.AddTool(mcp.NewTool("survey"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
			Message: "Please provide inputs for the following fields:", RequestedSchema: json.RawMessage(surveySchema),
		}}))
	})
	srv.AddTool(mcp.NewToolWithRawSchema(longToolName, "takes the survey's fields", json.RawMessage(surveySchema)), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Params.Arguments, nil)
	})
	srv.AddTool(mcp.NewToolWithRawSchema("trip", "plans a trip", json.RawMessage(tripSchema)), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(req.Params.Arguments, nil)
	})
	srv.AddTool(mcp.NewTool("sample"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		//lint:ignore SA1019 sampling is deprecated only from 2026-07-28; the test server speaks an earlier revision
		return answer(srv.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: mcp.CreateMessageParams{
			Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("Summarize tomorrow's forecast.")}},
			SystemPrompt: "You are terse.",
			ModelPreferences: &mcp.ModelPreferences{
				Hints: []mcp.ModelHint{{Name: "claude"}}, IntelligencePriority: 0.8,
			},
			MaxTokens: 100,
		}}))
	})
	return server.ServeStdio(srv)
}

// askerSession connects to the asker as VS Code (which declares sampling
// and elicitation), its questions asked on the interface's screen.
func askerSession(t *testing.T) (tea.Model, *loader.Session, *ui.Questions) {
	t.Helper()
	vscode, err := model.ClientNamed("vscode")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Servers: []config.ServerSpec{{
		Label: "asker", Command: os.Args[0], Env: []config.EnvVar{{Key: askerEnv, Value: "1"}},
	}}}
	q := ui.NewQuestions()
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Handshake: vscode.Handshake, Answers: loader.Answers{Ask: q.Ask}})
	t.Cleanup(func() { sess.Close() })
	m := ui.New(ui.Options{Title: "asker.json", Servers: cfg.Servers, Backend: sess, Questions: q})
	return settle(t, m, cfg, sess), sess, q
}

// callAsker calls a tool of the asker in the background, returning where
// its result text arrives.
func callAsker(t *testing.T, sess *loader.Session, tool string) <-chan string {
	return callAskerWith(t, sess, tool, nil)
}

// callAskerWith calls a tool of the asker with arguments.
func callAskerWith(t *testing.T, sess *loader.Session, tool string, args json.RawMessage) <-chan string {
	done := make(chan string, 1)
	go func() {
		res, err := sess.Call(context.Background(), "asker", tool, args)
		if err != nil {
			done <- "error: " + err.Error()
			return
		}
		done <- string(res.Result)
	}()
	return done
}

// question waits for the question the server asks.
func question(t *testing.T, q *ui.Questions) tea.Msg {
	t.Helper()
	got := make(chan tea.Msg, 1)
	go func() { got <- ui.NextQuestion(q) }()
	select {
	case msg := <-got:
		return msg
	case <-time.After(20 * time.Second):
		t.Fatal("no question asked within 20s")
	}
	return nil
}

func result(t *testing.T, done <-chan string) string {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("no call result within 20s")
	}
	return ""
}

// TestElicitationForm: an elicitation shows a form built from its schema,
// defaults filled in and required fields marked; accepting sends what was
// typed and chosen, declining sends nothing.
func TestElicitationForm(t *testing.T) {
	m, sess, q := askerSession(t)
	done := callAsker(t, sess, "book")
	m, _ = m.Update(question(t, q))
	golden(t, "ask-elicitation", screen(m))

	m = press(m, "ctrl+s") // the name is required
	if got := screen(m); !strings.Contains(got, "Your name is required") {
		t.Errorf("accepting without the required name:\n%s", got)
	}
	m = press(m, "A", "d", "a", "tab", "tab", "right", "tab", "space", "ctrl+s")
	want := `{\"action\":\"accept\",\"content\":{\"class\":\"eco\",\"name\":\"Ada\",\"seats\":2,\"window\":false}}`
	got := result(t, done)
	if !strings.Contains(got, want) {
		t.Errorf("book answered %s, want %s", got, want)
	}

	done = callAsker(t, sess, "book")
	m, _ = m.Update(question(t, q))
	press(m, "ctrl+x")
	if got := result(t, done); !strings.Contains(got, `{\"action\":\"decline\"}`) {
		t.Errorf("book declined answered %s", got)
	}
}

// TestElicitationURL: a URL elicitation shows the URL and opens it only
// when asked to, accepting; n declines without opening it.
func TestElicitationURL(t *testing.T) {
	m, sess, q := askerSession(t)
	opened := make(chan string, 2)
	ui.OpenWith(q, func(url string) error { opened <- url; return nil })
	done := callAsker(t, sess, "login")
	m, _ = m.Update(question(t, q))
	golden(t, "ask-url", screen(m))
	m = press(m, "n")
	if got := result(t, done); !strings.Contains(got, `{\"action\":\"decline\"}`) || len(opened) != 0 {
		t.Errorf("login declined answered %s, opened %d URLs", got, len(opened))
	}
	done = callAsker(t, sess, "login")
	m, _ = m.Update(question(t, q))
	_, cmd := m.Update(ui.KeyPress("y"))
	if got := result(t, done); !strings.Contains(got, `{\"action\":\"accept\"}`) {
		t.Errorf("login answered %s, want accept", got)
	}
	ui.RunBatch(cmd) // the browser opens in the background (and the next question is awaited)
	select {
	case url := <-opened:
		if url != "https://example.com/login" {
			t.Errorf("opened %q, want the URL asked", url)
		}
	case <-time.After(10 * time.Second):
		t.Error("y did not open the URL")
	}
}

// TestElicitationURLRefused drives URL elicitations through the real
// opener and a real $BROWSER: a URL the opener refuses is shown whole
// (sanitized) with the reason, y does not open it and n declines it; a
// URL it takes reaches the browser as exactly one argument.
func TestElicitationURLRefused(t *testing.T) {
	b := browsertest.New(t)
	m, sess, q := askerSession(t)
	for _, tc := range []struct{ url, shown, reason string }{
		{"file:///etc/shadow", "file:///etc/shadow", `scheme "file"`},
		{"smb://host/share/x.exe", "smb://host/share/x.exe", `scheme "smb"`},
		{"javascript:alert(1)", "javascript:alert(1)", `scheme "javascript"`},
		{"--version", "--version", "starts with '-'"},
		{"ms-msdt://localhost/x", "ms-msdt://localhost/x", `scheme "ms-msdt"`},
		{"http://example.com/", "http://example.com/", "plain http"},
		{"https://x/a\nb\u001b[2J", `https://x/a\nb\x1b[2J`, "U+000A"},
	} {
		args, _ := json.Marshal(map[string]string{"url": tc.url})
		done := callAskerWith(t, sess, "open", args)
		m, _ = m.Update(question(t, q))
		var cmd tea.Cmd
		m, cmd = m.Update(ui.KeyPress("y"))
		got := screen(m)
		if !strings.Contains(got, tc.shown) || !strings.Contains(got, tc.reason) || strings.Contains(got, "y open in a browser") {
			t.Errorf("%q: after y the question should stay, the URL shown as %q with the reason %q and no y:\n%s", tc.url, tc.shown, tc.reason, got)
		}
		if cmd != nil {
			t.Errorf("%q: y returned a command; it should do nothing", tc.url)
		}
		m = press(m, "n")
		if got := result(t, done); !strings.Contains(got, `{\"action\":\"decline\"}`) {
			t.Errorf("%q: n answered %s, want decline", tc.url, got)
		}
	}
	const good = "https://example.com/login?next=%2F&a=$(id)"
	args, _ := json.Marshal(map[string]string{"url": good})
	done := callAskerWith(t, sess, "open", args)
	m, _ = m.Update(question(t, q))
	_, cmd := m.Update(ui.KeyPress("y"))
	if got := result(t, done); !strings.Contains(got, `{\"action\":\"accept\"}`) {
		t.Errorf("open answered %s, want accept", got)
	}
	ui.RunBatch(cmd)
	if calls := b.Wait(t, 1); len(calls) != 1 || !slices.Equal(calls[0], []string{good}) {
		t.Errorf("the browser ran with %q, want only [[%q]]", calls, good)
	}
}

// TestSamplingReply: a sampling request shows the conversation, the system
// prompt and the model preferences; the reply typed is the model's answer,
// and esc rejects it.
func TestSamplingReply(t *testing.T) {
	m, sess, q := askerSession(t)
	done := callAsker(t, sess, "sample")
	m, _ = m.Update(question(t, q))
	golden(t, "ask-sampling", screen(m))
	m = press(m, "D", "r", "y", "enter", "c", "o", "l", "d", "ctrl+s")
	if got := result(t, done); !strings.Contains(got, `\"text\":\"Dry\\ncold\"`) {
		t.Errorf("sample answered %s, want the reply Dry, a line break, cold", got)
	}

	done = callAsker(t, sess, "sample")
	m, _ = m.Update(question(t, q))
	press(m, "esc")
	if got := result(t, done); !strings.Contains(got, "rejected") {
		t.Errorf("sample rejected answered %s, want the rejection", got)
	}
}

// TestElicitationMultiSelect: an elicitation's array of choices is a
// multi-select: ←/→ move among the options, space picks one, and the
// content is the options picked, in their order; content that fails the
// requested schema is accepted only at the second ctrl+s.
func TestElicitationMultiSelect(t *testing.T) {
	m, sess, q := askerSession(t)
	done := callAsker(t, sess, "order")
	m, _ = m.Update(question(t, q))
	golden(t, "ask-multiselect", screen(m))
	m = press(m, "ctrl+s") // meals is required
	if got := screen(m); !strings.Contains(got, "Meals is required") {
		t.Errorf("accepting without the required meals:\n%s", got)
	}
	m = press(m, "space", "right", "space", "right", "space", "ctrl+s") // all three: over maxItems
	if got := screen(m); !strings.Contains(got, "/meals: maxItems: got 3, want 2 (ctrl+s again accepts anyway)") {
		t.Errorf("accepting three meals of two at most:\n%s", got)
	}
	press(m, "left", "left", "space", "tab", "space", "ctrl+s")
	want := `{\"action\":\"accept\",\"content\":{\"extras\":[\"bag\",\"seat\"],\"meals\":[\"fish\",\"meat\"]}}`
	if got := result(t, done); !strings.Contains(got, want) {
		t.Errorf("order answered %s, want %s", got, want)
	}
}
