package edit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shapes are configs of the shapes tap install and uninstall once lost or
// broke, and others the formats allow, each under the name its format
// is read from.
var shapes = []struct{ name, file, data string }{
	{"args before command, empty (JSON)", ".mcp.json", `{"mcpServers": {"a": {"args": [], "command": "npx"}}}`},
	{"args before command, empty (TOML)", ".codex/config.toml", "[mcp_servers.a]\nargs = []\ncommand = \"npx\"\n"},
	{"spaced empty args", ".mcp.json", `{"mcpServers": {"a": {"command": "npx", "args": [ ]}}}`},
	{"empty args, .mcp.json", ".mcp.json", `{"mcpServers": {"a": {"command": "npx", "args": []}}}`},
	{"empty args, VS Code", ".vscode/mcp.json", "{\n  // mine\n  \"servers\": {\"a\": {\"command\": \"npx\", \"args\": []},},\n}\n"},
	{"empty args, Zed", ".zed/settings.json", `{"context_servers": {"a": {"command": "npx", "args": []}}}`},
	{"empty args, Zed command object", ".zed/settings.json", `{"context_servers": {"a": {"command": {"path": "npx", "args": []}}}}`},
	{"empty args, ~/.claude.json", ".claude.json", `{"mcpServers": {"a": {"command": "npx", "args": []}}, "projects": {"/p": {"mcpServers": {"b": {"command": "x", "args": []}}}}}`},
	{"empty args, Codex", ".codex/config.toml", "[mcp_servers.a]\ncommand = \"npx\"\nargs = []\n"},
	{"TOML multi-line string holding a table header", ".codex/config.toml", "notes = \"\"\"\n[mcp_servers.x]\ncommand = \"evil\"\n\"\"\"\n[mcp_servers.a]\ncommand = \"npx\"\n"},
	{"TOML literal strings", ".codex/config.toml", "[mcp_servers.a]\ncommand = '''C:\\npx'''\nargs = ['-y', \"\"\"srv\"\"\"]\n"},
	{"TOML inline table, no args", ".codex/config.toml", "[mcp_servers]\na = { command = \"npx\", env = { K = \"v\" } }\n"},
	{"TOML dotted keys, no args", ".codex/config.toml", "mcp_servers.a.command = \"npx\"\n\n[other]\nx = 1\n"},
	{"TOML CRLF, indented", ".codex/config.toml", "[mcp_servers.a]\r\n  command = \"npx\" # run it\r\n  [mcp_servers.a.env]\r\n  K = \"v\"\r\n"},
	{"TOML array of tables beside", ".codex/config.toml", "[[profiles]]\ncommand = \"not a server\"\n[mcp_servers.a]\ncommand = \"npx\"\n"},
	{"JSONC comments and trailing commas", ".vscode/mcp.json", "{\"servers\": {\"a\": {\n  \"command\": \"npx\", // the server\n  \"args\": [\"-y\", /* pkg */ \"srv\",],\n},},}"},
	{"CRLF and BOM", "claude_desktop_config.json", "\xef\xbb\xbf{\r\n  \"mcpServers\": {\r\n    \"a\": {\r\n      \"command\": \"npx\"\r\n    }\r\n  }\r\n}\r\n"},
	{"args of a comment only", ".vscode/mcp.json", `{"servers": {"a": {"command": "npx", "args": [ /* none */ ]}}}`},
}

// TestShapes installs and uninstalls each shape on a real file, and wants
// the original bytes back, the tapped servers running the tap.
func TestShapes(t *testing.T) {
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), sh.file)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(sh.data), 0o644); err != nil {
				t.Fatal(err)
			}
			f, doc := readDoc(t, path)
			out, outcomes, err := doc.Tap(testTap)
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			if len(outcomes) == 0 || !outcomes[0].Tapped || !bytes.Contains(out, []byte(`"tap", `)) {
				t.Fatalf("install tapped nothing: %+v\n%s", outcomes, out)
			}
			if strings.Contains(sh.data, "evil") && bytes.Count(out, []byte("/opt/mcplens")) != 1 {
				t.Errorf("install edited inside a string:\n%s", out)
			}
			if err := f.Backup(); err != nil {
				t.Fatal(err)
			}
			if err := f.Write(out); err != nil {
				t.Fatal(err)
			}
			f, doc = readDoc(t, path)
			back, labels, err := doc.Untap()
			if err != nil || len(labels) == 0 {
				t.Fatalf("uninstall = %q, %v", labels, err)
			}
			if err := f.Write(back); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != sh.data {
				t.Errorf("uninstall left\n%q\nwant\n%q", got, sh.data)
			}
			if kept, _ := os.ReadFile(f.BackupPath()); string(kept) != sh.data {
				t.Errorf("the backup holds %q, want %q", kept, sh.data)
			}
		})
	}
}

func readDoc(t *testing.T, path string) (*File, *Doc) {
	t.Helper()
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(f.Path, f.Data)
	if err != nil {
		t.Fatal(err)
	}
	return f, doc
}

// FuzzEdit reads any bytes as a config of each format: no input makes
// the editor panic, and whatever install writes, uninstall takes back to
// what uninstall gives of the input (the input itself when it has no
// tap): go test ./loader/config/edit -fuzz FuzzEdit.
func FuzzEdit(f *testing.F) {
	for i, sh := range shapes {
		for j, g := range genFormats {
			if g.file == sh.file {
				f.Add([]byte(sh.data), uint8(j))
			}
		}
		f.Add([]byte(sh.data), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		path := filepath.Join("/nowhere", genFormats[int(format)%len(genFormats)].file)
		doc, err := Parse(path, data)
		if err != nil {
			return
		}
		want, _, err := doc.Untap()
		if err != nil {
			return // a tap it cannot undo in place: refused, said why
		}
		out, _, err := doc.tap(testTap) // unchecked: the fuzzer is the check
		if err != nil {
			return // an edit that would not parse: refused, said why
		}
		again, err := Parse(path, out)
		if err != nil {
			t.Fatalf("install wrote a config that does not parse: %v\n%q", err, out)
		}
		back, _, err := again.Untap()
		if err != nil || !bytes.Equal(back, want) {
			t.Fatalf("uninstall(install(x)) = %q, %v; want %q", back, err, want)
		}
	})
}
