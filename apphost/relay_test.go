package apphost

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/apppage"
	"github.com/mcplens/mcplens/model"
)

// hang is a server's call that never answers: it returns once its
// context ends, counting that into ended.
func hang(ended chan<- error) func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		ended <- context.Cause(ctx)
		return nil, context.Cause(ctx)
	}
}

// relay posts body to h's relay as its host page does, over loopback HTTP,
// and returns the answer.
func relay(_ *testing.T, h *Host, body string) <-chan string { return apppage.Post(h.URL(), body) }

// TestRelayedCallEndsWithTheHost: an app's tools/call to a tool that never
// answers ends when the host stops, rather than holding the server's call
// (calls to one server run one at a time) for as long as a browser keeps
// the request open.
func TestRelayedCallEndsWithTheHost(t *testing.T) {
	o, _ := options(t, "<p>", model.AppMIMEType)
	ended := make(chan error, 1)
	o.Call = hang(ended)
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	answer := relay(t, h, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{}}}`)
	deadline := time.After(20 * time.Second)
	for len(o.Log.Frames()) == 0 { // the call is on its way once the app's message is a frame
		select {
		case <-deadline:
			t.Fatal("the app's tools/call never reached the host")
		case <-time.After(10 * time.Millisecond):
		}
	}
	h.Close()
	select {
	case <-ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the relayed call goes on after the host stopped")
	}
	<-answer
}

// TestRelayedCallBounded: an app's tools/call to a tool that never answers
// is answered with an error once the relay timeout passes, and the host
// answers the app's next message.
func TestRelayedCallBounded(t *testing.T) {
	o, _ := options(t, "<p>", model.AppMIMEType)
	ended := make(chan error, 1)
	o.Call, o.RelayTimeout = hang(ended), 200*time.Millisecond
	h, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	select {
	case got := <-relay(t, h, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"state","arguments":{}}}`):
		if !strings.Contains(got, `"code":-32603,"message":"no answer within 200ms"`) {
			t.Errorf("the hung call was answered %s", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the hung call was not answered within 30s")
	}
	if err := <-ended; err == nil {
		t.Error("the server's call did not end")
	}
	if got := <-relay(t, h, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); !strings.Contains(got, `"id":2,"jsonrpc":"2.0","result":{}`) {
		t.Errorf("after the hung call, a ping was answered %s", got)
	}
}
