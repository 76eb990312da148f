package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallOutputSchema calls testdata/servers/reader's tools whose
// structuredContent keeps or breaks their outputSchema: call prints the
// output-schema findings the interface shows, and only for the one that
// breaks it.
func TestCallOutputSchema(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "reader")
	if out, err := exec.Command("go", "build", "-o", bin, "../testdata/servers/reader").CombinedOutput(); err != nil {
		t.Fatalf("go build ../testdata/servers/reader: %v\n%s", err, out)
	}
	cfg := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers":{"reader":{"command":"`+bin+`"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool string
		want []string
	}{
		{"report", nil},
		{"bad_report", []string{
			"warning output-schema: structuredContent breaks the outputSchema: at /count: got string, want integer",
			"warning output-schema: structuredContent breaks the outputSchema: at /status: value must be one of 'ok', 'degraded'",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			code, out, errb := runCalled(t, "", cfg, tt.tool, "--args", "{}")
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errb)
			}
			var got []string
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "output-schema") {
					got = append(got, l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("call %s printed findings %q, want %q\n%s", tt.tool, got, tt.want, out)
			}
		})
	}
}
