//go:build unix

package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestAppReadErrorSanitizedAndMasked: a server whose app resource cannot be
// read answers with an error quoting the config's secret among terminal
// escapes; mcplens app exits 1 saying why, the escapes shown escaped and
// the secret masked.
func TestAppReadErrorSanitizedAndMasked(t *testing.T) {
	const secret = "app-token-4f9c2e7d1b"
	server := build(t, "../internal/testkit/appserver")
	path := gatedConfig(t, map[string]string{"board": `{"command": "` + server + `", "args": ["-read-error"], "env": {"APP_TOKEN": "` + secret + `"}}`})
	cmd := exec.Command(build(t, ".."), "app", path, "show_board", "--no-open", "--client", "claude-desktop", "--lifetime", "1m")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("mcplens app on an unreadable app: %v, want exit 1\nstderr: %q", err, stderr.String())
	}
	out := stdout.String() + stderr.String()
	if !strings.Contains(stderr.String(), "reading app resource") || !strings.Contains(stderr.String(), "no app for token ****") {
		t.Errorf("stderr does not say why the app was not hosted, its secret masked: %q", stderr.String())
	}
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b", secret} {
		if strings.Contains(out, bad) {
			t.Errorf("mcplens app printed %q raw: %q", bad, out)
		}
	}
}
