package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRedactTextProse: mcplens's own messages, and prose that names
// credentials without holding one, come out as written.
func TestRedactTextProse(t *testing.T) {
	for _, in := range []string{
		"connecting to http://127.0.0.1:80/mcp: 401 Unauthorized (the server wants authorization: mcplens does not run OAuth; give a token in the config's headers)",
		"the server wants a Bearer token.",
		"pass your token as --header, or a key in the env",
		"password: required",
		"session expired; log in again",
		"row 3 has no usable name: name is a number, not a string",
		`3:5: unknown key "api_key": Cursor does not read it`,
		"Authorization: Required",
		"13:26: header Authorization: ${env:DOCS_TOKEN} is not set; the client passes an empty string",
		"18:36: header Authorization: $GEMINI_MCP_TOKEN is not set; passed as written",
		"header Authorization: Bearer ${input:token} (API token) needs an answer",
		`args: --token=${env:GH_TOKEN} and {"api_key": "$KEY"} are passed as written`,
	} {
		if got := RedactText(in); got != in {
			t.Errorf("RedactText(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestRedactTextSyntax: a secret written in any credential syntax is
// masked, and only the secret.
func TestRedactTextSyntax(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"query", `Post "http://127.0.0.1:9/mcp?token=s3cr3t&x=1": refused`, `Post "http://127.0.0.1:9/mcp?token=****&x=****": refused`},
		{"assignment", "starting with token=s3cr3t and mode=dev", "starting with token=**** and mode=dev"},
		{"env assignment", "env: OPENAI_API_KEY=sk-proj-abc123, DEBUG=1", "env: OPENAI_API_KEY=****, DEBUG=1"},
		{"bearer", "sent Authorization: Bearer eyJhbGciOi.x.y today", "sent Authorization: Bearer **** today"},
		{"basic", "Basic dXNlcjpwYXNz rejected", "Basic **** rejected"},
		{"header scheme token", "Authorization: token ghp_abc123", "Authorization: token ****"},
		{"header", "Authorization: abc123XYZ", "Authorization: ****"},
		{"custom header", "X-Api-Key: hunter", "X-Api-Key: ****"},
		{"flag", "exec server --api-key sk-live-123 --port 80", "exec server --api-key **** --port 80"},
		{"flag quoted", `args ["--token" "abc"]`, `args ["--token" "****"]`},
		{"json member", `config {"api_key": "abc def", "name": "x"}`, `config {"api_key": "****", "name": "x"}`},
		{"json member tight", `{"token":"abc"}`, `{"token":"****"}`},
		{"url then status", `Post "https://h/mcp?token=abc": 401 Unauthorized`, `Post "https://h/mcp?token=****": 401 Unauthorized`},
		{"userinfo", "cannot reach postgres://u:hunter2@db/x", "cannot reach postgres://u:****@db/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactText(tt.in); got != tt.want {
				t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactorValues(t *testing.T) {
	r := NewRedactor("s3cr3t-value-9", "a b+c/d", "hunter2", "", "xy", "true")
	tests := []struct{ name, in, want string }{
		{"anywhere", "auth failed for s3cr3t-value-9!", "auth failed for ****!"},
		{"inside a word", "keys3cr3t-value-9x", "key****x"},
		{"query escaped", "GET /x?k=a+b%2Bc%2Fd", "GET /x?k=****"},
		{"short as a word", "PASSWORD=hunter2 rejected", "PASSWORD=**** rejected"},
		{"short inside a word", "hunter22 and xhunter2", "hunter22 and xhunter2"},
		{"too short", "xy is not looked for", "xy is not looked for"},
		{"under the minimum", `{"ok":true}`, `{"ok":true}`},
		{"a shape too", "hook https://hooks.slack.com/services/T000/B000/XXXX", "hook https://hooks.slack.com/services/****"},
		{"prose", "give a token in the config's headers", "give a token in the config's headers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Values(tt.in); got != tt.want {
				t.Errorf("Values(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if got, want := r.Text("server said: s3cr3t-value-9; Bearer abc123"), "server said: ****; Bearer ****"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	var none *Redactor
	if got := none.Text("token=abc"); got != "token=****" {
		t.Errorf("nil Redactor: Text = %q, want the syntax masked", got)
	}
	if r.Longest() != len("s3cr3t-value-9") {
		t.Errorf("Longest = %d, want %d", r.Longest(), len("s3cr3t-value-9"))
	}
}

func TestArgSecrets(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nothing", []string{"-y", "server", "--port", "80"}, nil},
		{"flag value", []string{"--api-key", "sk-live-123"}, []string{"sk-live-123"}},
		{"flag=value", []string{"--token=abc123"}, []string{"abc123"}},
		{"env", []string{"-e", "OPENAI=sk-x1", "-e", "GITHUB_TOKEN=ghp_1"}, []string{"ghp_1"}},
		{"header", []string{"Authorization: Bearer eyJ.x"}, []string{"Bearer eyJ.x"}},
		{"url", []string{"https://u:pw@h/sse?key=abc&r=eu"}, []string{"pw", "abc", "eu"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ArgSecrets(tt.in)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("ArgSecrets(%q) = %q, want it to hold %q", tt.in, got, w)
				}
			}
			if tt.want == nil && got != nil {
				t.Errorf("ArgSecrets(%q) = %q, want none", tt.in, got)
			}
		})
	}
}

func TestLooksSecret(t *testing.T) {
	for v, want := range map[string]bool{
		"ghp_abcdefghij0123456789":         true,
		"sk-proj-AbC123dEf456gHi789":       true,
		"production":                       false,
		"/home/user/.nvm/versions/v20.1.0": false,
		"https://example.com/a1b2c3d4e5f6": false,
		"two words 1234567890abcdef":       false,
		strings.Repeat("a", 30):            false,
	} {
		if got := LooksSecret(v); got != want {
			t.Errorf("LooksSecret(%q) = %v, want %v", v, got, want)
		}
	}
}

// FuzzRedactorValues: no secret of eight bytes or more survives Values,
// wherever it stands in the text.
func FuzzRedactorValues(f *testing.F) {
	f.Add("failed: ", "s3cr3t-value", " rejected")
	f.Add("aaaa", "aaaaaaaa", "aaaa")
	f.Add("%3D", "a+b/c=d e", "&x")
	f.Fuzz(func(t *testing.T, before, secret, after string) {
		if len(secret) < anywhereSecret || strings.Contains(secret, "*") {
			return
		}
		if got := NewRedactor(secret).Values(before + secret + after); strings.Contains(got, secret) {
			t.Errorf("Values(%q) = %q, still holding %q", before+secret+after, got, secret)
		}
	})
}

func ExampleRedactor() {
	// The secrets the config holds: config.NewRedactor collects them.
	r := NewRedactor("HEADERVALUE77", "sk-live-123")
	fmt.Println(r.Text(`rejected HEADERVALUE77 from Post "https://h/mcp?token=abc": 401`))
	fmt.Println(r.Text("the server wants authorization: give a token in the config's headers"))
	fmt.Println(r.Values(`{"result":"echo sk-live-123"}`))
	// Output:
	// rejected **** from Post "https://h/mcp?token=****": 401
	// the server wants authorization: give a token in the config's headers
	// {"result":"echo ****"}
}
