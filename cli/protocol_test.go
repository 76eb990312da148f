package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/stateless"
	"github.com/mcplens/mcplens/report"
)

// TestProtocolFlag: check and call say which revision each server settled
// on and why, in text and JSON; --protocol forces a revision on any
// profile, and refuses a value that is not one (a usage error).
func TestProtocolFlag(t *testing.T) {
	modern := stateless.Start(t, stateless.Config{TTLMs: 60000, Scope: "private"})
	legacy := stateless.Start(t, stateless.Config{Legacy: true})

	settledOf := func(t *testing.T, args ...string) string {
		t.Helper()
		code, out, errb := runChecked(t, append([]string{"--format", "json"}, args...)...)
		var r report.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Servers) != 1 {
			t.Fatalf("check %s: exit %d, %v\n%s%s", strings.Join(args, " "), code, err, out, errb)
		}
		return r.Servers[0].ProtocolSettled
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"stateless server", []string{"--url", modern.URL}, "2026-07-28 via server/discover"},
		{"handshake server", []string{"--url", legacy.URL}, "2025-11-25 via initialize: server/discover answered error -32601 (method not found): Method not found"},
		{"forced on mcplens", []string{"--url", legacy.URL, "--protocol", "2025-11-25"}, "2025-11-25 via initialize, asked for 2025-11-25 (--protocol 2025-11-25)"},
		{"forced on a profile", []string{"--url", modern.URL, "--client", "vscode", "--protocol", "2026-07-28"}, "2026-07-28 via server/discover (--protocol 2026-07-28)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := settledOf(t, tt.args...); got != tt.want {
				t.Errorf("check %s: protocol_settled %q, want %q", strings.Join(tt.args, " "), got, tt.want)
			}
		})
	}

	if code, out, errb := runChecked(t, "--url", modern.URL); code != exitOK || !strings.Contains(out, "protocol 2026-07-28 via server/discover") {
		t.Errorf("check text: exit %d, want the settled revision in the server's line\n%s%s", code, out, errb)
	}
	if code, out, errb := runCalled(t, "", "echo", "--url", modern.URL, "--protocol", "2026-07-28"); code != exitOK || !strings.Contains(out, "echo echo") {
		t.Errorf("call --protocol 2026-07-28: exit %d\n%s%s", code, out, errb)
	}
	// What a server says in its refusal of the probe reaches the report
	// escaped.
	hostile := stateless.Start(t, stateless.Config{Legacy: true, Refusal: "no\x1b]0;pwned\x07 \u202eway"})
	for _, format := range []string{"text", "markdown"} {
		_, out, _ := runChecked(t, "--url", hostile.URL, "--format", format)
		if !strings.Contains(out, "server/discover answered error -32601 (method not found): no") || !strings.Contains(out, "x1b") ||
			strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Errorf("check --format %s: the refusal is not shown escaped:\n%s", format, out)
		}
	}
	for _, bad := range []string{"latest", "2026-02-30", "2026-07-28; rm -rf /", "\x1b[2J"} {
		code, _, errb := runChecked(t, "--url", modern.URL, "--protocol", bad)
		if code != exitUsage || !strings.Contains(errb, "protocol revision") || strings.ContainsRune(errb, 0x1b) {
			t.Errorf("check --protocol %q: exit %d, want %d with the violation named\n%s", bad, code, exitUsage, errb)
		}
	}
}
