package apphost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// A reply is the host's answer to one relayed message: the messages the
// host page posts to the app, in order, and the lines it shows the user.
type reply struct {
	Deliver []json.RawMessage `json:"deliver"`
	Notices []string          `json:"notices"`
}

// A bridge is the host's side of the app's JSON-RPC: one message at a
// time, in the order the app posted them.
type bridge struct {
	o     Options
	res   model.AppResource
	limit *rate.Limiter

	// life ends when the host stops: a question still open is then
	// answered as refused.
	life context.Context

	mu     sync.Mutex
	called bool // the app's tool was called for it once
}

func newBridge(o Options, res model.AppResource) *bridge {
	return &bridge{o: o, res: res, limit: rate.NewLimiter(MessageRate, MessageBurst), life: context.Background()}
}

// message is a JSON-RPC message as the app posts it.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// JSON-RPC error codes the host answers with.
const (
	codeInvalid  = -32600
	codeMethod   = -32601
	codeParams   = -32602
	codeInternal = -32603
	codeRefused  = -32000
)

// frame keeps one message of the app's as a frame of its server.
func (b *bridge) frame(dir mcpsession.Direction, line []byte, problem string) {
	if b.o.Log == nil {
		return
	}
	b.o.Log.Add(mcpsession.Frame{Dir: dir, At: time.Now(), Bytes: line, Size: len(line), App: b.o.Tool.Name, Problem: problem})
}

// refuse answers a message the host would not read (over its size).
func (b *bridge) refuse(body []byte, why string) reply {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.frame(mcpsession.In, body, why)
	return reply{Notices: []string{model.Sanitize("refused a message of the app: " + why)}}
}

// violation keeps a CSP violation report as a frame of the app's, its
// problem naming what was blocked, and shows it.
func (b *bridge) violation(body []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.limit.Allow() {
		return
	}
	var r struct {
		Report struct {
			Blocked   string `json:"blocked-uri"`
			Directive string `json:"effective-directive"`
		} `json:"csp-report"`
	}
	_ = json.Unmarshal(body, &r)
	what := fmt.Sprintf("blocked by the app's CSP: %s %s", r.Report.Directive, r.Report.Blocked)
	b.frame(mcpsession.In, body, what)
	var out reply
	b.notice(&out, fmt.Sprintf("the app %s: %s", model.QuoteJSON(b.o.Tool.Name), what))
}

// handle answers one message of the app's.
func (b *bridge) handle(ctx context.Context, body []byte) reply {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out reply
	var m message
	if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" {
		b.frame(mcpsession.In, body, "not a JSON-RPC 2.0 message")
		return out
	}
	request := len(m.ID) > 0 && string(m.ID) != "null"
	if !b.limit.Allow() {
		b.frame(mcpsession.In, body, fmt.Sprintf("over the host's %d messages a second", MessageRate))
		if request {
			b.fail(&out, m.ID, codeRefused, "too many messages: the host takes "+fmt.Sprint(MessageRate)+" a second")
		}
		return out
	}
	b.frame(mcpsession.In, body, "")
	if m.Method == "" {
		return out // an answer to a request of the host's, or noise: kept as a frame
	}
	if !request {
		b.notification(ctx, &out, m)
		return out
	}
	switch m.Method {
	case "ui/initialize":
		b.answer(&out, m.ID, b.initialize())
	case "ping":
		b.answer(&out, m.ID, struct{}{})
	case "tools/call":
		b.callTool(ctx, &out, m)
	case "resources/read":
		b.readResource(ctx, &out, m)
	case "ui/open-link":
		b.openLink(ctx, &out, m)
	case "ui/message":
		b.notice(&out, fmt.Sprintf("the app %s asks to post a message to the conversation: refused, mcplens has no model to send it to: %s", model.QuoteJSON(b.o.Tool.Name), b.clip(m.Params)))
		b.fail(&out, m.ID, codeRefused, "refused: this host has no model to send a message to")
	case "ui/update-model-context":
		b.notice(&out, fmt.Sprintf("the app %s updates the model's context: shown here, sent to no model: %s", model.QuoteJSON(b.o.Tool.Name), b.clip(m.Params)))
		b.answer(&out, m.ID, struct{}{})
	case "ui/request-display-mode":
		b.answer(&out, m.ID, map[string]string{"mode": "inline"})
	default:
		b.fail(&out, m.ID, codeMethod, "method not found: "+m.Method)
	}
	return out
}

// notification handles a notification of the app's: on initialized, the
// tool's input and result; the rest are kept as frames only.
func (b *bridge) notification(ctx context.Context, out *reply, m message) {
	if m.Method != "ui/notifications/initialized" || b.called {
		return
	}
	b.called = true
	args := b.o.Args
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	b.notify(out, "ui/notifications/tool-input", map[string]json.RawMessage{"arguments": args})
	result, err := b.call(ctx, b.o.Tool.Name, args)
	if err != nil {
		b.notify(out, "ui/notifications/tool-cancelled", map[string]string{"reason": err.Error()})
		return
	}
	b.notify(out, "ui/notifications/tool-result", result)
}

// initialize is the answer to the app's ui/initialize.
func (b *bridge) initialize() any {
	tool := b.o.Tool.Raw
	if len(tool) == 0 {
		tool = json.RawMessage(`{}`)
	}
	return map[string]any{
		"protocolVersion": ProtocolVersion,
		"hostInfo":        map[string]string{"name": "mcplens", "version": b.o.Version},
		"hostCapabilities": map[string]any{
			"serverTools":     map[string]any{},
			"serverResources": map[string]any{},
			"logging":         map[string]any{},
			"sandbox":         map[string]any{"permissions": map[string]any{}, "csp": b.res.CSP},
		},
		"hostContext": map[string]any{
			"toolInfo":              map[string]any{"tool": tool},
			"theme":                 "light",
			"displayMode":           "inline",
			"availableDisplayModes": []string{"inline"},
			"platform":              "desktop",
			"locale":                "en-US",
			"userAgent":             "mcplens",
		},
	}
}

// callTool relays the app's tools/call to its server: only a tool of that
// server, listed, not withheld by the config, and visible to apps.
func (b *bridge) callTool(ctx context.Context, out *reply, m message) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Name == "" {
		b.fail(out, m.ID, codeParams, "tools/call wants params {name, arguments}")
		return
	}
	var tool *model.Tool
	for i := range b.o.Tools {
		if t := &b.o.Tools[i]; t.NameOK && t.Name == p.Name {
			tool = t
			break
		}
	}
	switch {
	case tool == nil:
		b.fail(out, m.ID, codeParams, fmt.Sprintf("no tool %q on %s", p.Name, b.o.Server))
		return
	case tool.FilteredBy != "":
		b.fail(out, m.ID, codeRefused, fmt.Sprintf("tool %q is withheld by the config: %s", p.Name, tool.FilteredBy))
		return
	case !tool.App.ForApp():
		b.fail(out, m.ID, codeRefused, fmt.Sprintf("tool %q is not visible to apps (visibility %s)", p.Name, tool.App.VisibilityText()))
		return
	}
	args := bytes.TrimSpace(p.Arguments)
	if len(args) == 0 || string(args) == "null" {
		args = []byte(`{}`)
	}
	if why := checkArgs(tool, args); why != "" {
		b.fail(out, m.ID, codeParams, why)
		return
	}
	result, err := b.call(ctx, p.Name, args)
	if err != nil {
		b.fail(out, m.ID, codeInternal, err.Error())
		return
	}
	b.answer(out, m.ID, result)
}

// call calls a tool of the server for the app, within the relay timeout
// and the host's life: a tool that never answers would otherwise hold the
// app's messages, and the server's calls, as long as a browser waits.
func (b *bridge) call(ctx context.Context, wire string, args json.RawMessage) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, b.o.RelayTimeout, fmt.Errorf("no answer within %s", b.o.RelayTimeout))
	defer cancel()
	defer context.AfterFunc(b.life, cancel)()
	result, err := b.o.Call(ctx, wire, args)
	if err != nil && context.Cause(ctx) != nil {
		err = context.Cause(ctx)
	}
	return result, err
}

// checkArgs says why args may not go to tool ("" when they may): over
// MaxArguments, not an object, or breaking the tool's input schema, by
// the check the interface and call make (argcheck). A schema that does not
// compile checks nothing: the server judges the arguments.
func checkArgs(tool *model.Tool, args json.RawMessage) string {
	if len(args) > MaxArguments {
		return fmt.Sprintf("tools/call arguments are %d bytes, over the host's %d", len(args), MaxArguments)
	}
	if args[0] != '{' {
		return "tools/call arguments must be an object"
	}
	problems, err := argcheck.Validate(tool.InputSchema, args)
	if err != nil || len(problems) == 0 {
		return ""
	}
	var why strings.Builder
	fmt.Fprintf(&why, "the arguments break the input schema of %q; nothing was sent:", tool.Name)
	for i, p := range problems {
		if i == maxProblems {
			fmt.Fprintf(&why, " (and %d more)", len(problems)-i)
			break
		}
		why.WriteString(" " + p.String() + ";")
	}
	return strings.TrimSuffix(why.String(), ";")
}

// maxProblems is how many schema violations a refusal names.
const maxProblems = 8

// openLink answers the app's ui/open-link: the user is asked
// (Options.OpenLink), the lock let go meanwhile; with no one to ask, or
// asked and refused, the app gets an error, and a link opened gets {}.
func (b *bridge) openLink(ctx context.Context, out *reply, m message) {
	var p struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(m.Params, &p)
	app := model.QuoteJSON(b.o.Tool.Name)
	if b.o.OpenLink == nil || p.URL == "" {
		b.notice(out, fmt.Sprintf("the app %s asks to open %s: refused, mcplens opens no link an app asks for here; copy it if you trust it", app, model.QuoteJSON(p.URL)))
		b.fail(out, m.ID, codeRefused, "refused: this host opens no links")
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer context.AfterFunc(b.life, cancel)()
	defer cancel()
	b.mu.Unlock()
	err := b.o.OpenLink(ctx, p.URL)
	b.mu.Lock()
	if err != nil {
		b.notice(out, fmt.Sprintf("the app %s asked to open %s: refused: %v", app, model.QuoteJSON(p.URL), err))
		b.fail(out, m.ID, codeRefused, "refused: "+err.Error())
		return
	}
	b.notice(out, fmt.Sprintf("the app %s asked to open %s: opened", app, model.QuoteJSON(p.URL)))
	b.answer(out, m.ID, struct{}{})
}

// readResource relays the app's resources/read: only a resource its
// server listed.
func (b *bridge) readResource(ctx context.Context, out *reply, m message) {
	var p struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.URI == "" {
		b.fail(out, m.ID, codeParams, "resources/read wants params {uri}")
		return
	}
	if resourceIndex(b.o.Resources, p.URI) < 0 {
		b.fail(out, m.ID, codeRefused, fmt.Sprintf("%q is not a resource %s lists", p.URI, b.o.Server))
		return
	}
	result, err := b.o.Read(ctx, p.URI)
	if err != nil {
		b.fail(out, m.ID, codeInternal, err.Error())
		return
	}
	b.answer(out, m.ID, result)
}

func (b *bridge) send(out *reply, v any) {
	line, err := json.Marshal(v)
	if err != nil {
		return
	}
	b.frame(mcpsession.Out, line, "")
	out.Deliver = append(out.Deliver, line)
}

func (b *bridge) answer(out *reply, id json.RawMessage, result any) {
	b.send(out, map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (b *bridge) fail(out *reply, id json.RawMessage, code int, msg string) {
	b.send(out, map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

func (b *bridge) notify(out *reply, method string, params any) {
	b.send(out, map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (b *bridge) notice(out *reply, text string) {
	text = model.Sanitize(b.mask(text))
	out.Notices = append(out.Notices, text)
	if b.o.Notice != nil {
		b.o.Notice(text)
	}
}

// mask hides the config's secrets in s (Options.Mask).
func (b *bridge) mask(s string) string { return mask(b.o, s) }

// clip is the start of raw JSON, its secrets masked first, for a notice.
func (b *bridge) clip(raw json.RawMessage) string {
	return model.ClipText(b.mask(string(raw)), 300)
}
