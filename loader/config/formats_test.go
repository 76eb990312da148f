package config_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const allFormats = "claude-desktop, claude-code, cursor, windsurf, vscode, gemini-cli, codex, zed"

// testEnv is the environment the golden configs are read in.
var testEnv = map[string]string{
	"HOME":                 "/home/user",
	"TOOLS_DIR":            "/opt/tools",
	"API_TOKEN":            "tok-S3CR3T",
	"SENTRY_TOKEN":         "sntry-S3CR3T",
	"STRIPE_SECRET_KEY":    "sk_test_S3CR3T",
	"GITHUB_TOKEN":         "ghp_S3CR3T",
	"DB_CONNECTION_STRING": "postgres://u:S3CR3T@db/app",
	"EXTERNAL_API_KEY":     "ext-S3CR3T",
	"PATH_EXTRA":           "/opt/extra/bin",
	"FIGMA_OAUTH_TOKEN":    "figma-S3CR3T",
	"FIGMA_TEAM_ID":        "team-42",
	"MODE":                 "debug",
}

func lookupTestEnv(k string) (string, bool) {
	v, ok := testEnv[k]
	return v, ok
}

// configFiles returns the config files under testdata/configs/formats.
func configFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	root := filepath.Join("..", "..", "testdata", "configs", "formats")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".json", ".toml", ".md":
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestConfigGoldens reads every test config as its client would and
// compares the ordered server list, secrets masked, with its golden file.
func TestConfigGoldens(t *testing.T) {
	files := configFiles(t)
	if len(files) < 12 {
		t.Fatalf("found %d test configs, want one per format and more: %q", len(files), files)
	}
	formats := map[string]bool{}
	for _, path := range files {
		t.Run(strings.TrimPrefix(filepath.ToSlash(path), "../../testdata/configs/formats/"), func(t *testing.T) {
			ws, err := filepath.Abs(filepath.Dir(path))
			if err != nil {
				t.Fatal(err)
			}
			if d := filepath.Base(ws); strings.HasPrefix(d, ".") || d == "zed" {
				ws = filepath.Dir(ws)
			}
			opts := config.Options{
				LookupEnv: lookupTestEnv,
				Home:      "/home/user",
				Workspace: ws,
				Project:   "/home/user/work/api",
				Inputs:    map[string]string{"region": "eu-west"},
			}
			cfg, err := config.LoadWith(path, opts)
			var got string
			if err != nil {
				got = "error: " + err.Error() + "\n"
			} else {
				formats[cfg.Format] = true
				got = describeConfig(cfg)
			}
			got = strings.ReplaceAll(got, ws, "$WORKSPACE")
			got = strings.ReplaceAll(got, filepath.ToSlash(path), filepath.Base(path))
			if strings.Contains(got, "S3CR3T") {
				t.Errorf("the description shows a secret:\n%s", got)
			}
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./loader/config -run TestConfigGoldens -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", path, golden, got, want)
			}
		})
	}
	for _, f := range config.Formats() {
		if !formats[f.Name] && !*update {
			t.Errorf("no test config is read as %s", f.Name)
		}
	}
}

// describeConfig renders a parsed config for a golden file, through
// Redacted: keys visible, secret values masked.
func describeConfig(cfg *config.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "format: %s\n", cfg.Format)
	if cfg.Project != "" {
		fmt.Fprintf(&b, "project: %s\n", cfg.Project)
	}
	for _, in := range cfg.Inputs {
		fmt.Fprintf(&b, "input: %s (%s, password %t) %q\n", in.ID, in.Type, in.Password, in.Description)
	}
	for _, f := range cfg.Findings {
		fmt.Fprintf(&b, "finding: %s\n", f)
	}
	for _, s := range cfg.Servers {
		s = s.Redacted()
		fmt.Fprintf(&b, "\nserver %s (%s)\n", s.Label, s.Transport)
		line := func(k string, v any) { fmt.Fprintf(&b, "  %s: %v\n", k, v) }
		if s.Command != "" {
			line("command", s.Command)
		}
		if len(s.Args) > 0 {
			line("args", fmt.Sprintf("%q", s.Args))
		}
		for _, e := range s.Env {
			line("env", e.Key+"="+e.Value)
		}
		if s.Cwd != "" {
			line("cwd", s.Cwd)
		}
		if s.URL != "" {
			line("url", s.URL)
		}
		for _, h := range s.Headers {
			line("header", h.Name+": "+h.Value)
		}
		if s.Timeout > 0 {
			line("timeout", s.Timeout)
		}
		if len(s.IncludeTools) > 0 {
			line("include tools", strings.Join(s.IncludeTools, ", "))
		}
		if len(s.ExcludeTools) > 0 {
			line("exclude tools", strings.Join(s.ExcludeTools, ", "))
		}
		if s.Disabled {
			line("disabled", true)
		}
		if s.Blocked != "" {
			line("not started", s.Blocked)
		}
		for _, f := range s.Findings {
			line("finding", f)
		}
	}
	return b.String()
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		name, path, data, want string
	}{
		{"claude desktop by name", "claude_desktop_config.json", `{"mcpServers": {"a": {"command": "x"}}}`, "claude-desktop"},
		{"claude code by name", "/p/.mcp.json", `{"mcpServers": {"a": {"command": "x"}}}`, "claude-code"},
		{"cursor by name", "/p/.cursor/mcp.json", `{"mcpServers": {"a": {"command": "x"}}}`, "cursor"},
		{"vscode by name", "/p/.vscode/mcp.json", `{"servers": {"a": {"command": "x"}}}`, "vscode"},
		{"vscode user profile", "/h/.config/Code/User/mcp.json", `{"servers": {"a": {"command": "x"}}}`, "vscode"},
		{"windsurf by name", "/h/.codeium/windsurf/mcp_config.json", `{"mcpServers": {"a": {"command": "x"}}}`, "windsurf"},
		{"gemini by name", "/h/.gemini/settings.json", `{"mcpServers": {"a": {"command": "x"}}}`, "gemini-cli"},
		{"zed by name", "/h/.config/zed/settings.json", `{"context_servers": {"a": {"command": "x"}}}`, "zed"},
		{"codex by name", "/h/.codex/config.toml", "[mcp_servers.a]\ncommand = \"x\"\n", "codex"},
		{"toml by extension", "servers.toml", "[mcp_servers.a]\ncommand = \"x\"\n", "codex"},
		{"toml by content", "servers.conf", "[mcp_servers.a]\ncommand = \"x\"\n", "codex"},
		{"servers key", "x.json", `{"servers": {"a": {"command": "x"}}}`, "vscode"},
		{"context_servers key", "x.json", `{"context_servers": {"a": {"command": "x"}}}`, "zed"},
		{"projects key", "x.json", `{"mcpServers": {"a": {"command": "x"}}, "projects": {}}`, "claude-code"},
		{"serverUrl", "x.json", `{"mcpServers": {"a": {"serverUrl": "http://h"}}}`, "windsurf"},
		{"httpUrl", "x.json", `{"mcpServers": {"a": {"httpUrl": "http://h"}}}`, "gemini-cli"},
		{"excludeTools", "x.json", `{"mcpServers": {"a": {"command": "x", "excludeTools": []}}}`, "gemini-cli"},
		{"env: variables", "x.json", `{"mcpServers": {"a": {"command": "x", "env": {"K": "${env:K}"}}}}`, "cursor"},
		{"a client's key over another's variables", "x.json",
			`{"mcpServers": {"a": {"command": "x", "env": {"K": "${env:K}"}}, "b": {"serverUrl": "http://h"}}}`, "windsurf"},
		{"plain mcpServers", "x.json", `{"mcpServers": {"a": {"command": "x"}}}`, "claude-code"},
		{"jsonc content", "x.json", "{\"servers\": {\"a\": {\"command\": \"x\",},}, // c\n}", "vscode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Parse(tt.path, []byte(tt.data))
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", tt.path, err)
			}
			if cfg.Format != tt.want || cfg.Servers[0].Format != tt.want {
				t.Errorf("Parse(%q) format = %q, want %q", tt.path, cfg.Format, tt.want)
			}
		})
	}
}

func TestFormatOverride(t *testing.T) {
	data := []byte(`{"mcpServers": {"a": {"command": "x", "url": "http://h", "env": {"K": "${env:K}"}}}}`)
	cfg, err := config.ParseWith("x.json", data, config.Options{Format: "claude-desktop"})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Servers[0]
	if cfg.Format != "claude-desktop" || s.Transport != config.TransportStdio || s.Env[0].Value != "${env:K}" {
		t.Errorf("as claude-desktop: %+v, want stdio with env passed as written", s)
	}
	if want := []string{`1:39: unknown key "url": Claude Desktop does not read it`}; !reflect.DeepEqual(s.Findings, want) {
		t.Errorf("findings = %q, want %q", s.Findings, want)
	}

	_, err = config.ParseWith("x.json", data, config.Options{Format: "vscode"})
	want := `x.json:1:1: no "servers" key at the top level (found "mcpServers": is this a Claude Desktop file? try --format claude-desktop)`
	if err == nil || err.Error() != want {
		t.Errorf("as vscode: error %v, want %s", err, want)
	}
	_, err = config.ParseWith("x.json", data, config.Options{Format: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown format "nope" (want one of: `+allFormats+")") {
		t.Errorf("unknown format: error %v", err)
	}
}

func TestConfigSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, path, data, want string
	}{
		{
			name: "jsonc error after a comment",
			path: "/p/.vscode/mcp.json",
			data: "// servers\n{\n  \"servers\": {\n    /* one */ \"a\": {\"command\" \"x\"}\n  }\n}\n",
			want: `/p/.vscode/mcp.json:4:31: invalid character '"' after object name`,
		},
		{
			name: "json error keeps encoding/json's words",
			path: "x.json",
			data: "{\"mcpServers\": {\"a\": {\"command\": tru}}}",
			want: `x.json:1:37: invalid character '}' in literal true (expecting 'e')`,
		},
		{
			name: "unterminated comment",
			path: "/p/.vscode/mcp.json",
			data: "{\"servers\": {} /* never closed",
			want: `/p/.vscode/mcp.json:1:16: parsing comment: unexpected EOF`,
		},
		{
			name: "toml error",
			path: "/h/.codex/config.toml",
			data: "model = \"x\"\n\n[mcp_servers.a]\ncommand = \"x\nargs = []\n",
			want: `/h/.codex/config.toml:4:13: basic strings cannot have new lines`,
		},
		{
			name: "toml duplicate key",
			path: "/h/.codex/config.toml",
			data: "[mcp_servers.a]\ncommand = \"x\"\ncommand = \"y\"\n",
			want: `/h/.codex/config.toml:3:1: key command is already defined`,
		},
		{
			name: "toml wrong type",
			path: "/h/.codex/config.toml",
			data: "[mcp_servers.\"é\"]\ncommand = \"x\"\nargs = \"-v\"\n",
			want: `/h/.codex/config.toml:3:8: server "é": args is a string, want an array of strings`,
		},
		{
			name: "not json nor toml",
			path: "README.md",
			data: "# Title\n\nSome text.\n",
			want: `README.md:1:1: not a config: neither JSON nor TOML (tried ` + allFormats + `): invalid character '#' looking for beginning of value`,
		},
		{
			name: "toml that is not codex",
			path: "Cargo.toml",
			data: "[package]\nname = \"x\"\n",
			want: `Cargo.toml:1:1: not an MCP client config: no "mcpServers", "servers", "mcp_servers" or "context_servers" key at the top level (tried ` + allFormats + `)`,
		},
		{
			name: "claude.json with an unknown project",
			path: "/h/.claude.json",
			data: `{"projects": {"/a": {"mcpServers": {"s": {"command": "x"}}}, "/b": {}}}`,
			want: `/h/.claude.json: no project "/nope" under "projects" (projects with servers: /a (1))`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.ParseWith(tt.path, []byte(tt.data), config.Options{Project: "/nope"})
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse(%q)\n got  %v\n want %s", tt.data, err, tt.want)
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Errorf("error is %T, want *config.Error", err)
			}
		})
	}
}

func TestJSONCPositionsMatchTheFile(t *testing.T) {
	data := "{\n  // a comment with \"quotes\" and a , comma\n  \"servers\": {\n    \"a\": {\"command\": \"x\", \"bogus\": 1,},\n  },\n}\n"
	cfg, err := config.Parse("/p/.vscode/mcp.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`4:27: unknown key "bogus": VS Code does not read it`}
	if got := cfg.Servers[0].Findings; !reflect.DeepEqual(got, want) {
		t.Errorf("findings = %q, want %q", got, want)
	}
	if len(cfg.Findings) != 0 {
		t.Errorf("config findings = %q, want none: VS Code reads comments", cfg.Findings)
	}

	cfg, err = config.Parse(".mcp.json", []byte("{\"mcpServers\": {\"a\": {\"command\": \"x\"}}, // c\n}"))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"the file has comments or trailing commas, which are not JSON: Claude Code would reject it"}
	if !reflect.DeepEqual(cfg.Findings, want) {
		t.Errorf("strict format with a comment: findings %q, want %q", cfg.Findings, want)
	}
}

func TestExpandVariables(t *testing.T) {
	env := map[string]string{"A": "alpha", "EMPTY": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		name, path, field string // field is a JSON string's body
		want              string
		findings          int
	}{
		{"claude set", ".mcp.json", "${A}/x", "alpha/x", 0},
		{"claude default unused", ".mcp.json", "${A:-d}", "alpha", 0},
		{"claude default", ".mcp.json", "${B:-d}", "d", 0},
		{"claude empty default", ".mcp.json", "[${B:-}]", "[]", 0},
		{"claude set but empty", ".mcp.json", "[${EMPTY:-d}]", "[]", 0},
		{"claude unset", ".mcp.json", "${B}", "${B}", 1},
		{"claude dollar alone", ".mcp.json", "$A and $", "$A and $", 0},
		{"claude no closing brace", ".mcp.json", "${A", "${A", 0},
		{"cursor env", ".cursor/mcp.json", "${env:A}", "alpha", 0},
		{"cursor unset env is empty", ".cursor/mcp.json", "[${env:B}]", "[]", 1},
		{"cursor home", ".cursor/mcp.json", "${userHome}/bin", "/home/u/bin", 0},
		{"cursor workspace", ".cursor/mcp.json", "${workspaceFolder}|${workspaceFolderBasename}", "/w/proj|proj", 0},
		{"cursor separators", ".cursor/mcp.json", "a${pathSeparator}b${/}c", "a/b/c", 0},
		{"cursor bare name is not a variable", ".cursor/mcp.json", "${A}", "${A}", 1},
		{"windsurf env", "mcp_config.json", "${env:A}", "alpha", 0},
		{"gemini dollar", ".gemini/settings.json", "$A-${A}", "alpha-alpha", 0},
		{"gemini unset", ".gemini/settings.json", "$B", "$B", 1},
		{"gemini number is not a name", ".gemini/settings.json", "$5", "$5", 0},
		{"claude desktop takes text as written", "claude_desktop_config.json", "${A} $A", "${A} $A", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := fmt.Sprintf(`{"mcpServers": {"s": {"command": "x", "args": [%q]}}}`, tt.field)
			cfg, err := config.ParseWith(tt.path, []byte(data), config.Options{
				LookupEnv: lookup, Home: "/home/u", Workspace: "/w/proj",
			})
			if err != nil {
				t.Fatal(err)
			}
			s := cfg.Servers[0]
			if s.Args[0] != tt.want || len(s.Findings) != tt.findings {
				t.Errorf("expand(%q) as %s = %q with findings %q, want %q with %d", tt.field, cfg.Format, s.Args[0], s.Findings, tt.want, tt.findings)
			}
		})
	}
}

func TestUnresolvedCommandIsNotStarted(t *testing.T) {
	data := `{"mcpServers": {"a": {"command": "${env:NOPE}"}, "b": {"url": "https://${env:NOPE}/mcp"}}}`
	cfg, err := config.ParseWith(".cursor/mcp.json", []byte(data), config.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	wantA := "command: ${env:NOPE} is not set; the client passes an empty string"
	if got := cfg.Servers[0].Blocked; got != wantA {
		t.Errorf("a blocked = %q, want %q", got, wantA)
	}
	if got := cfg.Servers[1].Blocked; !strings.HasPrefix(got, "url: ${env:NOPE} is not set") {
		t.Errorf("b blocked = %q, want the url's variable named", got)
	}
}

func TestClaudeUserProjects(t *testing.T) {
	data := `{
  "mcpServers": {"mem": {"command": "user-mem"}, "web": {"type": "http", "url": "http://u"}},
  "projects": {
    "/a": {"mcpServers": {"extra": {"command": "e"}, "mem": {"command": "project-mem"}}},
    "/b": {"mcpServers": {"only-b": {"command": "b"}}}
  }
}`
	labels := func(cfg *config.Config) string {
		var out []string
		for _, s := range cfg.Servers {
			out = append(out, s.Label+"="+s.Command+s.URL)
		}
		return strings.Join(out, " ")
	}
	cfg, err := config.ParseWith("/h/.claude.json", []byte(data), config.Options{Project: "/a"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := labels(cfg), "mem=project-mem web=http://u extra=e"; got != want || cfg.Project != "/a" {
		t.Errorf("with project /a: %s (project %q), want %s", got, cfg.Project, want)
	}
	cfg, err = config.ParseWith("/h/.claude.json", []byte(data), config.Options{Project: ""})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := labels(cfg), "mem=user-mem web=http://u"; got != want {
		t.Errorf("with no project: %s, want %s", got, want)
	}
	if want := []string{"projects with their own servers: /a (2), /b (1); add one with --project PATH"}; !reflect.DeepEqual(cfg.Findings, want) {
		t.Errorf("findings = %q, want %q", cfg.Findings, want)
	}
}

func TestVSCodeInputs(t *testing.T) {
	data := `{"inputs": [{"type": "promptString", "id": "k", "description": "Key", "password": true}],
"servers": {"s": {"command": "x", "env": {"K": "${input:k}"}}}}`
	cfg, err := config.ParseWith("/p/.vscode/mcp.json", []byte(data), config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []config.Input{{ID: "k", Type: "promptString", Description: "Key", Password: true}}; !reflect.DeepEqual(cfg.Inputs, want) {
		t.Errorf("inputs = %+v, want %+v", cfg.Inputs, want)
	}
	s := cfg.Servers[0]
	if s.Env[0].Value != "${input:k}" || len(s.Findings) != 1 || !strings.Contains(s.Findings[0], "needs an answer") {
		t.Errorf("unanswered input: env %v, findings %q", s.Env, s.Findings)
	}
	cfg, err = config.ParseWith("/p/.vscode/mcp.json", []byte(data), config.Options{Inputs: map[string]string{"k": "answer"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Servers[0]; s.Env[0].Value != "answer" || len(s.Findings) != 0 {
		t.Errorf("answered input: env %v, findings %q", s.Env, s.Findings)
	}
}
