package cli

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
)

// TestBadConfigFiles runs mcplens on config files that cannot be used and
// checks each gets one clear, terminal-safe message and exit code 2,
// before any server starts or the interface opens.
func TestBadConfigFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// A socket cannot be read as a file, whoever runs the test (root reads
	// a file whatever its mode).
	sock := filepath.Join(dir, "socket.json")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	elf, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	server := `{"command": "x"}`
	tests := []struct {
		name, path string
		want       []string
	}{
		{"missing", filepath.Join(dir, "nope.json"), []string{"loading config", "nope.json", "no such file or directory"}},
		{"unreadable", sock, []string{"loading config", "socket.json"}},
		{"directory", dir, []string{"loading config", "is a directory"}},
		{"empty", write("empty.json", ""), []string{"empty.json", "empty file"}},
		{"blank", write("blank.json", " \n\t\n"), []string{"blank.json", "empty file"}},
		{"binary", write("binary.json", string(elf[:4096])), []string{"binary.json:1:1:", "invalid character"}},
		{"zero servers", write("zero.json", `{"mcpServers": {}}`), []string{"zero.json:1:2:", `no servers: "mcpServers" is empty`}},
		{"empty label", write("label.json", `{"mcpServers": {"": `+server+`}}`), []string{"label.json:1:17:", "empty server label"}},
		{"huge label", write("huge.json", `{"mcpServers": {"`+strings.Repeat("a", 100000)+`": `+server+`}}`),
			[]string{"huge.json:1:17:", `server label "aaaa`, `..." is 100000 bytes long; a label has at most 256`}},
		{"label with escapes", write("ctrl.json", `{"mcpServers": {"evil\u001b]0;pwned\u0007\u202e": `+server+`}}`),
			[]string{"ctrl.json:1:17:", `server label "evil\x1b]0;pwned\a\u202e" holds control, bidi or invisible characters`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run([]string{tt.path}, nil, nil, &stderr)
			got := stderr.String()
			if code != 2 {
				t.Errorf("run(%s) = %d, want 2; stderr:\n%s", tt.name, code, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("run(%s) said %q, want %q in it", tt.name, got, w)
				}
			}
			if !strings.HasPrefix(got, "mcplens: ") || strings.Count(got, "\n") != 1 || len(got) > 400 {
				t.Errorf("run(%s) said %q, want one line, at most 400 bytes, starting mcplens:", tt.name, got)
			}
			if model.Suspicious(strings.TrimSuffix(got, "\n")) {
				t.Errorf("run(%s) said %q, which a terminal would interpret", tt.name, got)
			}
		})
	}
}
