package opener_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/browsertest"
	"github.com/mcplens/mcplens/opener"
)

// TestOpen runs a real $BROWSER: every hostile URL is refused without it
// running, and the URL let through reaches it as exactly one argument.
func TestOpen(t *testing.T) {
	b := browsertest.New(t)
	for _, raw := range []string{"file:///etc/shadow", "smb://host/share/x.exe", "javascript:alert(1)", "--version",
		"ms-msdt://localhost/x", "http://example.com/", "https://x/a\nb", "https://x/\x1b[2J", "https://x/a b"} {
		var re *opener.RefusedError
		if err := opener.Open(raw); !errors.As(err, &re) {
			t.Errorf("Open(%q) = %v, want a refusal", raw, err)
		}
	}
	const good = "https://example.com/cb?a=1&b=$(id)#x"
	if err := opener.Open(good); err != nil {
		t.Fatalf("Open(%q) = %v", good, err)
	}
	// A refusal returns before any command starts: the one run is the
	// URL let through.
	calls := b.Wait(t, 1)
	if want := [][]string{{good}}; !slices.EqualFunc(calls, want, slices.Equal) {
		t.Errorf("the browser ran with %q, want %q", calls, want)
	}
}

// TestOpenNoBrowser: no command of $BROWSER starts, and Open says so.
func TestOpenNoBrowser(t *testing.T) {
	t.Setenv("BROWSER", "/nonexistent/browser:/nonexistent/other")
	if err := opener.Open("https://example.com/"); err == nil {
		t.Error("Open with no browser that starts = nil, want an error")
	}
}
