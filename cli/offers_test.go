package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// promptsConfig writes a config of the two servers of
// testdata/servers/prompts, alpha and beta.
func promptsConfig(t *testing.T) string {
	t.Helper()
	bin := build(t, "../testdata/servers/prompts")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"alpha": map[string]any{"command": bin, "args": []string{"alpha"}},
		"beta":  map[string]any{"command": bin, "args": []string{"beta"}},
	}})
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadAndPrompt runs `mcplens read` and `mcplens prompt` on real
// servers: the frames printed as they crossed, then the contents.
func TestReadAndPrompt(t *testing.T) {
	cfg := promptsConfig(t)
	tests := []struct {
		name string
		run  func(args []string, stdout, stderr *bytes.Buffer) int
		args []string
		code int
		want []string
	}{
		{"read text", readCmd, []string{cfg, "alpha", "mem://alpha/notes"}, exitOK,
			[]string{`→ alpha {"jsonrpc":"2.0","id":"req-`, `"method":"resources/read"`, "text · mem://alpha/notes · text/plain\nnotes of alpha\n"}},
		{"read blob", readCmd, []string{cfg, "alpha", "mem://alpha/logo"}, exitOK, []string{"blob · mem://alpha/logo · image/png · 4 bytes\n"}},
		{"read missing", readCmd, []string{cfg, "alpha", "mem://alpha/none"}, exitFound, []string{`"error"`}},
		{"prompt", promptCmd, []string{cfg, "beta", "greet", "--arg", "name=ada"}, exitOK,
			[]string{`"method":"prompts/get"`, "user · text\nbeta greets ada\n"}},
		{"complete", promptCmd, []string{cfg, "beta", "greet", "--complete", "name", "--arg", "name=a"}, exitOK,
			[]string{`"method":"completion/complete"`, "value\nada\nvalue\nalan\n"}},
		{"unknown server", readCmd, []string{cfg, "gamma", "x"}, exitUsage, nil},
		{"bad arg", promptCmd, []string{cfg, "beta", "greet", "--arg", "name"}, exitUsage, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := tt.run(tt.args, &out, &errb); code != tt.code {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.code, out.String(), errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func readCmd(args []string, stdout, stderr *bytes.Buffer) int {
	return runRead(args, nil, stdout, stderr)
}
func promptCmd(args []string, stdout, stderr *bytes.Buffer) int {
	return runPrompt(args, nil, stdout, stderr)
}
