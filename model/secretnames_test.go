package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSecretNameSegments(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"PASSWORD", true},
		{"DB_PASS", true},
		{"PGPASSWORD", true},
		{"dbPassword", true},
		{"--pwd", true},
		{"X-Api-Key", true},
		{"APIKEY", true},
		{"apiKey", true},
		{"GITHUB_TOKEN", true},
		{"accessToken", true},
		{"client_secret", true},
		{"X-Custom-Creds", true},
		{"Authorization", true},
		{"Set-Cookie", true},
		{"SESSION_ID", true},
		{"Mcp-Session-Id", true},
		{"sessionId", true},
		{"session", true},
		{"SLACK_WEBHOOK", true},
		{"sig", true},
		{"AUTH", true},
		{"KEYBOARD_LAYOUT", false},
		{"PASSTHROUGH", false},
		{"BYPASS_CACHE", false},
		{"COMPASS", false},
		{"AUTHOR", false},
		{"SIGNAL", false},
		{"DESIGN", false},
		{"MONKEY", false},
		{"TOKENIZER_PATH", false},
		{"XDG_SESSION_TYPE", false},
		{"DESKTOP_SESSION", false},
		{"XAUTHORITY", false},
		{"OLDPWD", false},
		{"--port", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SecretName(tt.name); got != tt.want {
				t.Errorf("SecretName(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

func TestSecretEnv(t *testing.T) {
	tests := []struct {
		name, key, value string
		want             bool
	}{
		{"a password by name", "PASSWORD", "hunter2", true},
		{"a short name", "DB_PASS", "opensesame99", true},
		{"a webhook by shape", "NOTIFY_URL", "https://hooks.slack.com/services/T000/B000/XXXX", true},
		{"credentials in a URL", "DATABASE_URL", "postgres://app:opensesame99@db/app", true},
		{"a token by prefix", "GH", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", true},
		{"a random word", "OPAQUE", "Zq81xKs0LmPp4aT9", true},
		{"the working folder", "PWD", "/home/me/project", false},
		{"a path", "HOME", "/home/me", false},
		{"a mode", "NODE_ENV", "production", false},
		{"empty", "API_KEY", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SecretEnv(tt.key, tt.value); got != tt.want {
				t.Errorf("SecretEnv(%q, %q) = %v, want %v", tt.key, tt.value, got, tt.want)
			}
		})
	}
}

func TestMaskHeader(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"X-Custom-Creds", "opensesame99", Masked},
		{"X-Tenant", "acme", Masked}, // declared by a config, whatever its name
		{"authorization", "Bearer abcdefgh1234", Masked},
		{"Mcp-Session-Id", "4f1c2e", Masked},
		{"Content-Type", "application/json", "application/json"},
		{"Mcp-Protocol-Version", "2025-11-25", "2025-11-25"},
		{"Www-Authenticate", `Bearer resource_metadata="https://h/.well-known/x"`, `Bearer resource_metadata="https://h/.well-known/x"`},
		{"Location", "https://h/cb?code=abc123", "https://h/cb?code=****"},
		{"User-Agent", "client ghp_abcdefghijklmnopqrstuvwxyz0123456789", "client ****"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MaskHeader(tt.name, tt.value); got != tt.want {
				t.Errorf("MaskHeader(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
			}
		})
	}
}

func TestHeaderSecrets(t *testing.T) {
	tests := []struct {
		name, value string
		want        []string
	}{
		{"Authorization", "Bearer abcdefgh1234", []string{"Bearer abcdefgh1234", "abcdefgh1234"}},
		{"Cookie", "theme=dark; session=c00kie-value-77", []string{"theme=dark; session=c00kie-value-77", "dark", "c00kie-value-77"}},
		{"Set-Cookie", "sid=c00kie-value-77; Path=/; HttpOnly", []string{"sid=c00kie-value-77; Path=/; HttpOnly", "c00kie-value-77"}},
		{"X-Custom-Creds", "opensesame99", []string{"opensesame99"}},
		{"Content-Type", "application/json", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HeaderSecrets(tt.name, tt.value); !slices.Equal(got, tt.want) {
				t.Errorf("HeaderSecrets(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
			}
		})
	}
}

// A redactor learns values from traffic up to its bounds, and never
// changes the redactor it learned from.
func TestRedactorWith(t *testing.T) {
	r := NewRedactor("opensesame99")
	if r.With("opensesame99", "abc") != r {
		t.Error("With(a known value, a short one) made a new redactor")
	}
	l := r.With("c00kie-value-77")
	if got := l.Values("echo c00kie-value-77 opensesame99"); got != "echo **** ****" {
		t.Errorf("learned Values = %q", got)
	}
	if got := r.Values("echo c00kie-value-77"); got != "echo c00kie-value-77" {
		t.Errorf("With changed the redactor it was called on: %q", got)
	}
	if long := strings.Repeat("L", maxLearnedLen+1); r.With(long) != r {
		t.Error("With learned a value over maxLearnedLen")
	}
	for i := range maxLearned + 10 {
		l = l.With(fmt.Sprintf("learned-%04d", i))
	}
	if l.learned != maxLearned {
		t.Errorf("learned %d values, want at most %d", l.learned, maxLearned)
	}
	var none *Redactor
	if got := none.With("c00kie-value-77").Values("c00kie-value-77"); got != Masked {
		t.Errorf("nil With: Values = %q", got)
	}
}
