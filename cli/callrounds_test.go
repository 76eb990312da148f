//go:build linux

package cli

import (
	"strings"
	"testing"
)

// TestCallRounds: a multi-round request (an input_required result asking
// an elicitation and the roots) is answered as the conformance driver
// answers one, under a client that declares both, at the revision forced
// with --protocol: the call is sent again as round 2, ends with the
// answers' result and says it took two rounds. Under mcplens's own profile, which declares nothing, the
// same call is refused as such a client refuses it.
func TestCallRounds(t *testing.T) {
	server := build(t, "../testdata/servers/tasks")
	lens := build(t, "..")
	for _, tt := range []struct {
		name  string
		flags []string
		code  int
		out   string
		err   string
	}{
		{"vscode", []string{"--client", "vscode"}, 0, "rounds: 2 (the server answered input_required once;", ""},
		{"mcplens", nil, 1, "", "for what the client profile does not declare; such a client refuses it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"call", "ask", "--protocol", "2026-07-28", "--elicit", "accept-defaults", "--root", t.TempDir()}, tt.flags...)
			code, out, errs, _ := runLens(t, lens, append(args, "--", server)...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errs, tt.err) {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s\nwant %q on stdout, %q on stderr", code, tt.code, out, errs, tt.out, tt.err)
			}
			rounds := strings.Contains(out, "round 2 of the call") && strings.Contains(out, `"inputResponses"`) &&
				strings.Contains(out, "hello accept map[name:lens]; 1 roots")
			if rounds != (tt.code == 0) {
				t.Errorf("a second round with inputResponses sent: %v, want %v; stdout:\n%s", rounds, tt.code == 0, out)
			}
		})
	}
}
