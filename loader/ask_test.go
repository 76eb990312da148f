package loader_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader"
)

// TestEverythingAsks: with Answers.Ask, server-everything's elicitation
// and sampling requests are answered with what the person asked replied.
func TestEverythingAsks(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	ask := func(_ context.Context, q loader.Question) loader.Reply {
		mu.Lock()
		asked = append(asked, q.Server+" "+q.Method)
		mu.Unlock()
		accept := mcp.ElicitationResponseActionAccept
		return loader.Reply{Action: accept, Content: map[string]any{"name": "Ada Lovelace"}, Text: "forty-two"}
	}
	s, _ := openEverything(t, loader.Options{
		Handshake: mustClient(t, "vscode").Handshake,
		Answers:   loader.Answers{Ask: ask},
	})
	if res := call(t, s, "trigger-elicitation-request", `{}`); !strings.Contains(res, "Ada Lovelace") {
		t.Errorf("trigger-elicitation-request = %s, want the name given", res)
	}
	if res := call(t, s, "trigger-sampling-request", `{"prompt":"the answer?"}`); !strings.Contains(res, "forty-two") {
		t.Errorf("trigger-sampling-request = %s, want the reply given", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(asked, ", "); got != "everything elicitation/create, everything sampling/createMessage" {
		t.Errorf("asked %q, want the elicitation then the sampling request", got)
	}
}
