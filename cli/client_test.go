package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/report"
)

// TestCheckClient: --client names the client in every format and brings
// its policy, unless --policy is given; without it the report has no
// client key, as before.
func TestCheckClient(t *testing.T) {
	tests := []struct {
		name               string
		args               []string
		wantClient, policy string
	}{
		{"profile's policy", []string{"--client", "vscode"}, "vscode@1.105", "vscode"},
		{"versioned", []string{"--client", "claude-desktop@2025"}, "claude-desktop@2025", "claude-code"},
		{"policy given", []string{"--client", "vscode", "--policy", "lionagi"}, "vscode@1.105", "lionagi"},
		{"naming-only client", []string{"--client", "qwen"}, "qwen", "qwen"},
		{"no client", []string{"--policy", "qwen"}, "", "qwen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, errb := runChecked(t, append(tt.args, "--format", "json", "--fail-on", "never")...)
			var r report.Report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("the JSON report does not parse: %v\n%s%s", err, out, errb)
			}
			if r.Client != tt.wantClient || r.Policy != tt.policy {
				t.Errorf("check %s: client %q, policy %q; want %q, %q", strings.Join(tt.args, " "), r.Client, r.Policy, tt.wantClient, tt.policy)
			}
			if hasKey := strings.Contains(out, `"client":`); hasKey != (tt.wantClient != "") {
				t.Errorf("check %s: JSON has a client key: %v, want %v", strings.Join(tt.args, " "), hasKey, tt.wantClient != "")
			}
		})
	}
	for format, want := range map[string]string{"text": "client vscode@1.105\n", "markdown": "Client `vscode@1.105`\n"} {
		if _, out, _ := runChecked(t, "--client", "vscode", "--format", format, "--fail-on", "never"); !strings.Contains(out, want) {
			t.Errorf("check --client vscode --format %s lacks %q:\n%s", format, want, out)
		}
	}
}

// TestCallClient: call resolves the name under the client's policy, and
// refuses answers it does not know.
func TestCallClient(t *testing.T) {
	code, out, errb := runCalled(t, "", "mcp__beta__request", "--client", "codex", "--args", `{"verb":"get"}`)
	if code != exitOK || !strings.Contains(out, "under codex") {
		t.Errorf("call --client codex: exit %d\n%s%s", code, out, errb)
	}
	for _, args := range [][]string{
		{"--elicit", "maybe"},
		{"--sampling", "reply:"},
		{"--sampling", "accept"},
		{"--client", "emacs"},
	} {
		code, _, errb := runCalled(t, "", append([]string{"mcp__beta__request"}, args...)...)
		if code != exitUsage || !strings.Contains(errb, "unknown") {
			t.Errorf("call %s: exit %d, stderr %q; want a usage error", strings.Join(args, " "), code, errb)
		}
	}
}
