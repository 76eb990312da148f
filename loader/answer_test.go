package loader

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/model"
)

// TestAnswer: a request is answered when the handshake declares its
// capability, and refused with -32601 (method not found) otherwise, as a
// client that never declared it does.
func TestAnswer(t *testing.T) {
	codex, err := model.ClientNamed("codex") // elicitation only
	if err != nil {
		t.Fatal(err)
	}
	form := `{"message":"who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ada"},"age":{"type":"number"}}}}`
	tests := []struct {
		name, method, params string
		answers              Answers
		want                 string
	}{
		{name: "roots undeclared", method: "roots/list", want: `"error":{"code":-32601,"message":"Method not found"}`},
		{name: "sampling undeclared", method: "sampling/createMessage", want: `"code":-32601`},
		{name: "unknown method", method: "tasks/list", want: `"code":-32601`},
		{name: "ping", method: "ping", want: `"result":{}`},
		{name: "elicit declined by default", method: "elicitation/create", params: form, want: `"result":{"action":"decline"}`},
		{name: "elicit cancel", method: "elicitation/create", params: form, answers: Answers{Elicit: ElicitCancel}, want: `"result":{"action":"cancel"}`},
		{name: "elicit accept-defaults", method: "elicitation/create", params: form, answers: Answers{Elicit: ElicitAcceptDefaults},
			want: `"result":{"action":"accept","content":{"name":"Ada"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &conn{s: &Session{opts: Options{Answers: tt.answers}}, hs: codex.Handshake}
			req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(7)), Method: tt.method}
			if tt.params != "" {
				req.Params = json.RawMessage(tt.params)
			}
			resp, err := c.answer(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(resp)
			if !strings.Contains(string(b), tt.want) {
				t.Errorf("answer(%s) = %s, want %s", tt.method, b, tt.want)
			}
		})
	}
}

// TestAnswerSampling: a declared sampling request is rejected by default
// and answered with the reply when one is set.
func TestAnswerSampling(t *testing.T) {
	vscode, _ := model.ClientNamed("vscode")
	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(1)), Method: "sampling/createMessage"}
	for _, tt := range []struct{ reply, want string }{
		{"", `"error":{"code":-1,"message":"User rejected sampling request"}`},
		{"hi", `"content":{"type":"text","text":"hi"}`},
	} {
		c := &conn{s: &Session{opts: Options{Answers: Answers{SamplingReply: tt.reply}}}, hs: vscode.Handshake}
		resp, _ := c.answer(context.Background(), req)
		if b, _ := json.Marshal(resp); !strings.Contains(string(b), tt.want) {
			t.Errorf("sampling with reply %q = %s, want %s", tt.reply, b, tt.want)
		}
	}
}

// TestNeutralProtocol: the neutral handshake asks for the revision the
// loader pins.
func TestNeutralProtocol(t *testing.T) {
	if got := model.NeutralHandshake().ProtocolVersion; got != ProtocolVersion {
		t.Errorf("neutral handshake protocol = %q, want %q", got, ProtocolVersion)
	}
}

// TestAnswerAsk: with Ask set, elicitations and sampling requests are
// answered with what it replies, and cancelled or rejected when it gives
// no answer.
func TestAnswerAsk(t *testing.T) {
	vscode, _ := model.ClientNamed("vscode") // sampling and elicitation
	accept := mcp.ElicitationResponseActionAccept
	tests := []struct {
		name, method string
		reply        Reply
		want         string
	}{
		{"elicit accepted", "elicitation/create", Reply{Action: accept, Content: map[string]any{"name": "Ada"}}, `"result":{"action":"accept","content":{"name":"Ada"}}`},
		{"elicit declined", "elicitation/create", Reply{Action: mcp.ElicitationResponseActionDecline, Content: map[string]any{"x": 1}}, `"result":{"action":"decline"}`},
		{"elicit unanswered", "elicitation/create", Reply{}, `"result":{"action":"cancel"}`},
		{"sampling answered", "sampling/createMessage", Reply{Action: accept, Text: "hi"}, `"text":"hi"`},
		{"sampling rejected", "sampling/createMessage", Reply{Action: mcp.ElicitationResponseActionDecline}, `"code":-1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked Question
			ask := func(_ context.Context, q Question) Reply { asked = q; return tt.reply }
			c := &conn{s: &Session{opts: Options{Answers: Answers{Ask: ask}}}, hs: vscode.Handshake}
			c.spec.Label = "srv"
			req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(3)), Method: tt.method, Params: json.RawMessage(`{"message":"m"}`)}
			resp, _ := c.answer(context.Background(), req)
			if b, _ := json.Marshal(resp); !strings.Contains(string(b), tt.want) {
				t.Errorf("answer = %s, want %s", b, tt.want)
			}
			if asked.Server != "srv" || asked.Method != tt.method || string(asked.Params) != `{"message":"m"}` {
				t.Errorf("asked %+v, want the request of srv", asked)
			}
		})
	}
}
