package config_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
)

func TestParseKeepsOrder(t *testing.T) {
	data := `{
  "other": {"ignored": true},
  "mcpServers": {
    "zeta":  {"command": "z", "args": ["--one", "two"], "env": {"Z": "1", "A": "2", "M": "3"}},
    "alpha": {"command": "a"},
    "mid":   {"command": "m", "workdir": "/tmp", "kind": "stdio"},
    "beta":  {"command": "b", "args": null, "env": null},
    "omega": {"command": "o", "args": []}
  }
}`
	cfg, err := config.Parse("order.json", []byte(data))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if cfg.Path != "order.json" {
		t.Errorf("Path = %q, want %q", cfg.Path, "order.json")
	}
	var labels []string
	for _, s := range cfg.Servers {
		labels = append(labels, s.Label)
	}
	if want := []string{"zeta", "alpha", "mid", "beta", "omega"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels = %q, want %q", labels, want)
	}
	zeta := cfg.Servers[0]
	if want := []string{"--one", "two"}; zeta.Command != "z" || !reflect.DeepEqual(zeta.Args, want) {
		t.Errorf("zeta = %q %q, want %q %q", zeta.Command, zeta.Args, "z", want)
	}
	wantEnv := []config.EnvVar{{"Z", "1"}, {"A", "2"}, {"M", "3"}}
	if !reflect.DeepEqual(zeta.Env, wantEnv) {
		t.Errorf("zeta env = %v, want %v", zeta.Env, wantEnv)
	}
	if want := []string{"workdir", "kind"}; !reflect.DeepEqual(cfg.Servers[2].Unknown, want) {
		t.Errorf("mid unknown keys = %q, want %q", cfg.Servers[2].Unknown, want)
	}
	wantFindings := []string{
		`6:31: unknown key "workdir": Claude Code does not read it`,
		`6:50: unknown key "kind": Claude Code does not read it`,
	}
	if got := cfg.Servers[2].Findings; !reflect.DeepEqual(got, wantFindings) {
		t.Errorf("mid findings = %q, want %q", got, wantFindings)
	}
	if b := cfg.Servers[3]; b.Args != nil || b.Env != nil {
		t.Errorf("beta with null args and env = %q %v, want none", b.Args, b.Env)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string // the whole error text
	}{
		{
			name: "broken line",
			data: "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",, \"args\": []}\n  }\n}\n",
			want: `x.json:3:26: invalid character ',' looking for beginning of object key string`,
		},
		{
			name: "cut short",
			data: "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"",
			want: `x.json:3:25: unexpected end of JSON input`,
		},
		{
			name: "characters counted, not bytes",
			data: "{\"mcpServers\": {\"é€\": {\"command\": 1}}}",
			want: `x.json:1:35: server "é€": command is a number, want a string`,
		},
		{
			name: "empty command",
			data: `{"mcpServers": {"a": {"command": ""}}}`,
			want: `x.json:1:34: server "a": empty command`,
		},
		{
			name: "zero servers",
			data: "{\n  \"mcpServers\": {}\n}",
			want: `x.json:2:3: no servers: "mcpServers" is empty`,
		},
		{
			name: "duplicate label",
			data: "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n  \"b\": {\"command\": \"y\"},\n    \"a\": {\"command\": \"z\"}\n}}",
			want: `x.json:4:5: duplicate server label "a" (first declared at 2:3)`,
		},
		{
			name: "empty label",
			data: `{"mcpServers": {"": {"command": "x"}}}`,
			want: `x.json:1:17: empty server label`,
		},
		{
			name: "empty file",
			data: "",
			want: `x.json: empty file`,
		},
		{
			name: "blank file",
			data: " \n\t\n",
			want: `x.json: empty file`,
		},
		{
			name: "array at top level",
			data: `[{"mcpServers": {}}]`,
			want: `x.json:1:1: not an MCP client config: the top level is an array (tried ` + allFormats + `)`,
		},
		{
			name: "string at top level",
			data: "\n  \"mcpServers\"",
			want: `x.json:2:3: not an MCP client config: the top level is a string (tried ` + allFormats + `)`,
		},
		{
			name: "no servers key",
			data: `{"name": "not-a-config", "version": "1.0.0"}`,
			want: `x.json:1:1: not an MCP client config: no "mcpServers", "servers", "mcp_servers" or "context_servers" key at the top level (tried ` + allFormats + `)`,
		},
		{
			name: "mcpServers twice",
			data: `{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {}}`,
			want: `x.json:1:41: "mcpServers" appears twice`,
		},
		{
			name: "mcpServers not an object",
			data: `{"mcpServers": ["a"]}`,
			want: `x.json:1:16: "mcpServers" is an array, want an object`,
		},
		{
			name: "server not an object",
			data: `{"mcpServers": {"a": "npx server"}}`,
			want: `x.json:1:22: server "a" is a string, want an object`,
		},
		{
			name: "args not an array",
			data: `{"mcpServers": {"a": {"command": "x", "args": "-v"}}}`,
			want: `x.json:1:47: server "a": args is a string, want an array of strings`,
		},
		{
			name: "arg not a string",
			data: `{"mcpServers": {"a": {"command": "x", "args": ["-v", 2]}}}`,
			want: `x.json:1:54: server "a": args[1] is a number, want a string`,
		},
		{
			name: "env not an object",
			data: `{"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}}`,
			want: `x.json:1:46: server "a": env is an array, want an object of strings`,
		},
		{
			name: "env value not a string",
			data: `{"mcpServers": {"a": {"command": "x", "env": {"PORT": 8080}}}}`,
			want: `x.json:1:55: server "a": env "PORT" is a number, want a string`,
		},
		{
			name: "env key twice",
			data: `{"mcpServers": {"a": {"command": "x", "env": {"A": "1", "A": "2"}}}}`,
			want: `x.json:1:57: server "a": env "A" appears twice`,
		},
		{
			name: "server key twice",
			data: `{"mcpServers": {"a": {"command": "x", "command": "y"}}}`,
			want: `x.json:1:39: server "a": "command" appears twice`,
		},
		{
			name: "data after the object",
			data: `{"mcpServers": {"a": {"command": "x"}}} x`,
			want: `x.json:1:41: invalid character 'x' after top-level value`,
		},
		{
			name: "byte order mark is not a column",
			data: "\xef\xbb\xbf{\"mcpServers\": 1}",
			want: `x.json:1:16: "mcpServers" is a number, want an object`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Parse("x.json", []byte(tt.data))
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want error %q", tt.data, cfg, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%q) error\n got  %s\n want %s", tt.data, err, tt.want)
			}
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Path != "x.json" {
				t.Errorf("Parse(%q) error is %T, want *config.Error for x.json", tt.data, err)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"b": {"command": "x"}, "a": {"command": "y"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Path != path || len(cfg.Servers) != 2 || cfg.Servers[0].Label != "b" {
		t.Errorf("Load = %+v, want b then a from %s", cfg, path)
	}

	_, err = config.Load(filepath.Join(dir, "missing.json"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load(missing) error = %v, want a not-exist error naming the file", err)
	}
}

// FuzzParse feeds every format (and detection) arbitrary bytes: the
// parser never panics, every error names a position or none, and every
// server it returns has a label and either something to start or a reason.
func FuzzParse(f *testing.F) {
	f.Add(uint8(0), []byte(`{"mcpServers": {"a": {"command": "x", "args": ["1"], "env": {"K": "V"}}}}`))
	f.Add(uint8(2), []byte(`{"mcpServers": {"b": {"command": "x"}, "a": {"url": "${env:U}", "headers": {"A": "b"}}}}`))
	f.Add(uint8(0), []byte(`{"mcpServers": {}}`))
	f.Add(uint8(0), []byte("\xef\xbb\xbf{\"mcpServers\": {\"a\": {\"command\": null}}}"))
	f.Add(uint8(0), []byte(`[1, 2]`))
	f.Add(uint8(0), []byte(`{"mcpServers": {"a": {"command": "x",, }}}`))
	f.Add(uint8(5), []byte("{\"servers\": {\"a\": {\"type\": \"http\", \"url\": \"${input:x}\"}, // c\n}, \"inputs\": [{\"id\": \"x\"}]}"))
	f.Add(uint8(6), []byte(`{"mcpServers": {"g": {"httpUrl": "$H", "includeTools": ["a"], "timeout": 10}}, "mcp": {"excluded": ["g"]}}`))
	f.Add(uint8(7), []byte("[mcp_servers.a]\ncommand = \"x\"\nenv = { A = \"1\" }\n[mcp_servers.a.env2]\nB = 2\n"))
	f.Add(uint8(8), []byte(`{"context_servers": {"z": {"command": {"path": "p", "args": ["a"]}}, "e": {"source": "extension"}}}`))
	f.Add(uint8(2), []byte(`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}, "mcpServers": {"a": {"command": "y"}}}`))
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		opts := config.Options{
			LookupEnv: func(k string) (string, bool) { return "v", k == "H" || k == "U" },
			Home:      "/home/u", Workspace: "/w", Project: "/p",
		}
		names := config.Formats()
		if i := int(format); i > 0 && i <= len(names) {
			opts.Format = names[i-1].Name
		}
		cfg, err := config.ParseWith("f.conf", data, opts)
		if err != nil {
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is %T, want *config.Error", err, err)
			}
			if ce.Line < 0 || ce.Col < 0 || (ce.Line == 0) != (ce.Col == 0) {
				t.Fatalf("error %q has position %d:%d", err, ce.Line, ce.Col)
			}
			return
		}
		if len(cfg.Servers) == 0 {
			t.Fatalf("Parse(%q) = no servers and no error", data)
		}
		seen := map[string]bool{}
		for _, s := range cfg.Servers {
			if s.Label == "" || seen[s.Label] {
				t.Fatalf("Parse(%q) has server %+v with an empty or repeated label", data, s)
			}
			seen[s.Label] = true
			switch {
			case s.Blocked != "":
			case s.Transport == config.TransportStdio && s.Command != "":
			case (s.Transport == config.TransportHTTP || s.Transport == config.TransportSSE) && s.URL != "":
			default:
				t.Fatalf("Parse(%q) has server %+v with nothing to start and no reason", data, s)
			}
		}
	})
}

func ExampleParse() {
	cfg, err := config.Parse("mcp.json", []byte(`{"mcpServers": {
		"beta":  {"command": "beta-server"},
		"alpha": {"command": "npx", "args": ["-y", "alpha-server"], "env": {"TOKEN": "t"}}
	}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range cfg.Servers {
		fmt.Println(s.Label, s.Command, s.Args, s.Env)
	}

	_, err = config.Parse("bad.json", []byte("{\n  \"mcpServers\": {,}\n}"))
	fmt.Println(err)
	// Output:
	// beta beta-server [] []
	// alpha npx [-y alpha-server] [{TOKEN t}]
	// bad.json:2:18: invalid character ',' looking for beginning of object key string
}
