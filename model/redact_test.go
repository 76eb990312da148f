package model

import (
	"slices"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "https://mcp.example.com/v1/mcp", "https://mcp.example.com/v1/mcp"},
		{"query token", "https://mcp.example.com/sse?token=s3cr3t&region=eu", "https://mcp.example.com/sse?token=****&region=****"},
		{"key without value", "https://h/p?debug", "https://h/p?debug"},
		{"user and password", "https://bob:hunter2@h/p", "https://bob:****@h/p"},
		{"token as user", "https://ghp_abc123@github.com/x", "https://****@github.com/x"},
		{"fragment", "https://h/p#access_token=abc", "https://h/p#****"},
		{"not a URL", "h/p?token=abc", "h/p?****"},
		{"no secret", "stdio", "stdio"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactURL(tt.in); got != tt.want {
				t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactArgs(t *testing.T) {
	tests := []struct {
		name     string
		in, want []string
	}{
		{"nothing secret", []string{"-y", "@modelcontextprotocol/server-everything", "stdio"},
			[]string{"-y", "@modelcontextprotocol/server-everything", "stdio"}},
		{"flag then value", []string{"--api-key", "sk-live-123", "--port", "80"},
			[]string{"--api-key", "****", "--port", "80"}},
		{"flag=value", []string{"--token=abc", "--name=x"}, []string{"--token=****", "--name=x"}},
		{"NAME=VALUE", []string{"-e", "GITHUB_TOKEN=ghp_1", "-e", "MODE=dev"},
			[]string{"-e", "GITHUB_TOKEN=****", "-e", "MODE=dev"}},
		{"header", []string{"--header", "Authorization: Bearer eyJhbGci"}, []string{"--header", "Authorization: ****"}},
		{"bearer", []string{"Bearer eyJhbGci"}, []string{"Bearer ****"}},
		{"url", []string{"mcp-remote", "https://h/sse?key=abc"}, []string{"mcp-remote", "https://h/sse?key=****"}},
		{"flag last", []string{"--password"}, []string{"--password"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			if got := RedactArgs(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("RedactArgs(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if !slices.Equal(in, tt.in) {
				t.Errorf("RedactArgs modified its input")
			}
		})
	}
}

func TestMaskValue(t *testing.T) {
	for in, want := range map[string]string{"": "", "x": Masked, strings.Repeat("s", 100): Masked} {
		if got := MaskValue(in); got != want {
			t.Errorf("MaskValue(%q) = %q, want %q", in, got, want)
		}
	}
	if got := RedactHeader("Authorization", "Bearer abc"); got != Masked {
		t.Errorf("RedactHeader(Authorization) = %q, want %q", got, Masked)
	}
}

func TestSecretName(t *testing.T) {
	for _, name := range []string{"API_KEY", "--token", "x-api-key", "client_secret", "Authorization", "GITHUB_PAT_password"} {
		if !SecretName(name) {
			t.Errorf("SecretName(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"--port", "MODE", "region", "-y"} {
		if SecretName(name) {
			t.Errorf("SecretName(%q) = true, want false", name)
		}
	}
}

func TestRedactText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`cannot reach "https://h/mcp?token=abc": refused`, `cannot reach "https://h/mcp?token=****": refused`},
		{"header Authorization: Bearer eyJ.x.y set", "header Authorization: Bearer **** set"},
		{"nothing to hide", "nothing to hide"},
	}
	for _, tt := range tests {
		if got := RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
