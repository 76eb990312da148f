package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/demo"
)

// recordThrough runs this test binary's demo server label advertising tools
// through `mcplens tap` (bin), driven by mcp-go's client as clientInfo
// name@version calling each of calls, and returns the recording's path.
func recordThrough(t *testing.T, bin, dir, label, name, version string, tools []string, calls ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, label+".jsonl")
	args := append([]string{"--name", label, "--record", rec, "--feed=false", "--", exe, demo.Subcommand, label}, tools...)
	cl, ctx := tapClient(t, bin, nil, args...)
	driveDemo(t, ctx, cl, name, version, calls...)
	cl.Close()
	return rec
}

// TestDiffRecording diffs what a real client was shown, recorded by two
// taps into one file, against a config of the same servers since changed:
// the recording is a side as a snapshot is, taken as the recorded client
// (Claude Code), and the config's servers are started as that client.
func TestDiffRecording(t *testing.T) {
	bin := build(t, "..")
	dir := t.TempDir()
	alpha := recordThrough(t, bin, dir, "alpha", "claude-code", "2.1.0", []string{"request", "retired"}, "request")
	beta := recordThrough(t, bin, dir, "beta", "claude-code", "2.1.0", []string{"other"}, "other")
	rec := filepath.Join(dir, "tapped.jsonl")
	var joined []byte
	for _, p := range []string{alpha, beta} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		joined = append(joined, b...)
	}
	if err := os.WriteFile(rec, joined, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := demoFile(t, dir, "b.json",
		demoServer{label: "alpha", tools: []string{"request", "retired"}},
		demoServer{label: "beta", tools: []string{"other", "request"}})

	code, text, errb := runDiffed(t, rec, cfg, "--fail-on", "added")
	if code != exitFound || errb != "" {
		t.Errorf("diff recording config = %d, want %d (a tool added); stderr %s", code, exitFound, errb)
	}
	golden(t, "recording.txt", normalize(t, text, dir))
	if !strings.Contains(text, "claude-code") {
		t.Errorf("the diff is not taken as the recorded client:\n%s", text)
	}

	// The other way round, as JSON: the recording's servers are B.
	code, out, errb := runDiffed(t, cfg, rec, "--format", "json", "--fail-on", "removed")
	if code != exitFound {
		t.Errorf("diff config recording = %d, want %d (a tool removed); stderr %s", code, exitFound, errb)
	}
	if !strings.Contains(out, `"removed"`) || !strings.Contains(out, "tapped.jsonl") {
		t.Errorf("JSON diff lacks the removal or the recording's name:\n%s", out)
	}
}
