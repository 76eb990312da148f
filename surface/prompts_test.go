package surface_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// TestPromptFindings: the prompt greet of two servers whose labels
// sanitize alike, under each client's prompt naming.
func TestPromptFindings(t *testing.T) {
	greet := model.Prompt{Name: "greet", NameOK: true, Raw: []byte(`{"name":"greet"}`)}
	snap := surface.New(specs("my server", "my_server"), nil)
	for _, label := range []string{"my server", "my_server"} {
		ev := ready(label, tool("ping"))
		ev.Offers.Prompts = []model.Prompt{greet}
		snap.Apply(ev)
	}
	tests := []struct {
		policy string
		want   []string // kind: command, per finding of a prompt
	}{
		{"claude-code", []string{"prompt-lost: mcp__my_server__greet"}},
		{"vscode", []string{"prompt-lost: mcp.my_server.greet"}},
		{"gemini-cli", []string{"prompt-renamed: my server.greet", "prompt-renamed: my_server.greet"}},
		{"codex", nil},
		{"lionagi", nil},
	}
	for _, tt := range tests {
		a := surface.Assess(snap, surface.Options{Policy: policy(t, tt.policy)})
		var got []string
		for _, f := range a.Findings {
			if strings.HasPrefix(f.Kind, "prompt-") {
				cmd := f.Evidence[strings.Index(f.Evidence, "(as /")+5 : strings.Index(f.Evidence, ")")]
				got = append(got, f.Kind+": "+cmd)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: prompt findings %q, want %q", tt.policy, got, tt.want)
		}
		if r := a.PromptResult(0); r == nil || len(r.Outcomes) != 1 {
			t.Errorf("%s: PromptResult(0) = %+v, want one outcome", tt.policy, r)
		}
	}
}

// A listing of a server's offers that failed is a note on the server, and
// the server stays ok.
func TestOffersNoteFinding(t *testing.T) {
	snap := surface.New(specs("alpha"), nil)
	ev := ready("alpha", tool("ping"))
	ev.Offers.Notes = []string{"prompts/list: server answered error -32603: boom"}
	snap.Apply(ev)
	a := surface.Assess(snap, surface.Options{Policy: policy(t, "claude-code")})
	if a.Servers[0].Status != surface.OK {
		t.Errorf("status = %s, want ok", a.Servers[0].Status)
	}
	found := false
	for _, f := range a.Findings {
		found = found || f.Kind == "note" && strings.Contains(f.Evidence, "prompts/list: server answered error -32603")
	}
	if !found {
		t.Errorf("findings %+v lack the note", a.Findings)
	}
}
