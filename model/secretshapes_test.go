package model

import (
	"strings"
	"testing"
)

// Secrets that come without a secret-sounding name are masked by their
// shape, wherever they sit on a command line.
func TestRedactArgsSecretShapes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		secret string
		want   string
	}{
		{"GitHub token", []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, "ghp_", "****"},
		{"GitHub OAuth token", []string{"serve", "gho_16C7e42F292c6912E7710c838347Ae178B4a"}, "gho_", "serve ****"},
		{"fine-grained PAT", []string{"github_pat_11ABCDEFG0123456789_abcdefghijklmnop"}, "github_pat_", "****"},
		{"OpenAI key", []string{"sk-abcdefABCDEF1234567890"}, "sk-abc", "****"},
		{"OpenAI project key", []string{"sk-proj-ABCDEFGHIJKLMNOP1234567890"}, "sk-proj-", "****"},
		{"Anthropic key", []string{"sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV"}, "sk-ant-", "****"},
		{"docker -e NAME=key", []string{"-e", "OPENAI=sk-abcdefABCDEF1234567890"}, "sk-", "-e OPENAI=****"},
		{"Slack bot token", []string{"xoxb-1234567890-ABCDEFGHIJKLMN"}, "xoxb-", "****"},
		{"Slack user token", []string{"--slack", "xoxp-1234567890-ABCDEFGHIJKLMN"}, "xoxp-", "--slack ****"},
		{"AWS key id", []string{"AKIAIOSFODNN7EXAMPLE"}, "AKIA", "****"},
		{"JSON web token", []string{"--jwt-like", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc"}, "eyJ", "--jwt-like ****"},
		{"database URL", []string{"postgres://u:PASS1234@db.internal/app"}, "PASS1234", "postgres://u:****@db.internal/app"},
		{"DSN without scheme", []string{"--dsn=u:PASS1234@tcp(db:3306)/app"}, "PASS1234", "--dsn=u:****@tcp(db:3306)/app"},
		{"token in a URL path", []string{"https://hooks.example.com/services/T0123/B0456/xoxAbCdEfGhIjKlMnOpQrStUv"}, "xoxAbCd",
			"https://hooks.example.com/services/T0123/B0456/****"},
		{"prefixed token in a URL path", []string{"https://api.example.com/v1/sk-proj-ABCDEFGHIJKLMNOP1234567890/mcp"}, "sk-proj-",
			"https://api.example.com/v1/****/mcp"},
		{"random word", []string{"--", "Zq8Yw7Xv6Ut5Sr4Qp3On2Ml1"}, "Zq8Y", "-- ****"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(RedactArgs(tt.args), " ")
			if strings.Contains(got, tt.secret) || got != tt.want {
				t.Errorf("RedactArgs(%q) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}

// Words that are not secrets keep their shape: the command line stays
// readable in a lock file.
func TestRedactArgsKeepsPlainWords(t *testing.T) {
	args := []string{"-y", "@modelcontextprotocol/server-everything@2025.1.14", "stdio", "sk-learn", "ghp_short",
		"mcp-server-filesystem-readonly", "2025-11-25T10:00:00Z", "/home/user/projects/0123456789abcdef",
		"git@github.com:org/repo.git", "https://mcp.example.com/v1/servers/filesystem/mcp"}
	if got := RedactArgs(args); strings.Join(got, " ") != strings.Join(args, " ") {
		t.Errorf("RedactArgs(%q) = %q, want them as they are", args, got)
	}
}

func TestLooksRandom(t *testing.T) {
	for word, want := range map[string]bool{
		"Zq8Yw7Xv6Ut5Sr4Qp3On2Ml1":             true,
		"xoxAbCdEfGhIjKlMnOpQrStUv":            true,
		"3f786850e387550fdab836ed7e6dc881de23": true,  // hex key
		"Zq8Yw7Xv6Ut5Sr4":                      false, // short
		"mcp-server-filesystem-readonly":       false, // one case, no digit
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaa1":        false, // low entropy
		"2025-11-25T10:00:00Z":                 false, // '.' or ':' is not a token character
		"Zq8Yw7Xv6Ut5/Sr4Qp3On2Ml1":            false, // a path
	} {
		if got := LooksRandom(word); got != want {
			t.Errorf("LooksRandom(%q) = %v, want %v", word, got, want)
		}
	}
}

// Every text tokenPattern finds a token in holds one of tokenPrefixes, so
// MaskTokens may leave texts holding none of them to themselves. The seeds
// hold a token of every alternative of the pattern.
func FuzzTokenPrefilter(f *testing.F) {
	for _, seed := range []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-", "sk-proj-", "sk-ant-",
		"sk-live-", "sk-test-", "rk_live_", "rk_test_", "pk_live_", "xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-",
		"xapp-", "glpat-", "gldt-", "hf_", "npm_", "pypi-", "AIza", "ya29.", "eyJ"} {
		f.Add(`{"k":"` + seed + `ABCDEFGHIJKLMNOP0123"}`)
	}
	f.Add("id AKIAIOSFODNN7EXAMPLE end")
	f.Add("ASIAIOSFODNN7EXAMPLE")
	f.Fuzz(func(t *testing.T, s string) {
		if tokenPattern.MatchString(s) && !mayHoldToken(s) {
			t.Errorf("%q holds a token but none of tokenPrefixes", s)
		}
	})
}

// The fast path of MaskTokens masks exactly what the expressions mask
// over the whole text (FuzzMaskTokens holds it for any text).
func TestMaskTokenPieces(t *testing.T) {
	tests := []string{
		`{"token":"ghp_0123456789abcdefghijklmn","url":"postgres://user:hunter2@db/x"}`,
		`Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwx and AKIAABCDEFGHIJKLMNOP`,
		"xoxb-1234567890123456789\tnpm_abcdefghijklmnopqrstuv\n" + `hf_abcdefghijklmnopqrstu/eyJhbGciOiJIUzI1NiJ9abcdef`,
		`user:pass@tcp(h:3306)/db a@b "x:y@z"`,
		`{"description":"nothing secret here, just sk-learn and ghp_x"}`,
		strings.Repeat("ab", 40) + "ghp_0123456789abcdefghijklmn",
		"",
	}
	for _, s := range tests {
		if got, want := maskTokenPieces(s), maskTokenPiece(s); got != want {
			t.Errorf("maskTokenPieces(%q) =\n%q, the expressions give\n%q", s, got, want)
		}
	}
}
