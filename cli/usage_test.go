package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestUsageListsCommands: mcplens --help names every command run takes.
func TestUsageListsCommands(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"--help"}, nil, nil, &stderr); code != 0 {
		t.Fatalf("--help exited %d", code)
	}
	for _, cmd := range []string{"check", "audit", "call", "read", "prompt", "diff", "tap", "watch", "login", "logout", "auth status"} {
		if !strings.Contains(stderr.String(), "mcplens "+cmd+" ") {
			t.Errorf("--help does not list mcplens %s:\n%s", cmd, stderr.String())
		}
	}
}
