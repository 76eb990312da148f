package config

import (
	"strings"
	"testing"
)

// TestNewRedactor: every secret a spec holds is masked where a message
// quotes it bare, with no syntax around it to give it away; an env value
// that neither its name nor its shape marks as secret is left alone.
func TestNewRedactor(t *testing.T) {
	s := ServerSpec{
		Label:   "github",
		Command: "npx",
		Args:    []string{"-y", "server-github", "--token", "ghp_SECRET1", "--url=https://h/mcp?key=SECRET2", "-e", "DB_PASSWORD=SECRET10"},
		Env: []EnvVar{{"GITHUB_TOKEN", "SECRET3"}, {"MODE", "production"}, {"OPAQUE", "Zq81xKs0LmPp4aT9"},
			{"DATABASE_URL", "postgres://u:SECRET11@db/x"}},
		URL:     "https://user:SECRET5@mcp.example.com/mcp?access_token=SECRET6",
		Headers: []Header{{"Authorization", "Bearer SECRET7"}, {"X-Custom", "SECRET8"}},
	}
	r := NewRedactor([]ServerSpec{s})
	secrets := []string{"ghp_SECRET1", "SECRET2", "SECRET3", "SECRET5", "SECRET6", "SECRET7", "SECRET8", "SECRET10", "SECRET11", "Zq81xKs0LmPp4aT9"}
	msg := "the server said " + strings.Join(secrets, " then ") + " in production"
	got := r.Text(msg)
	for _, secret := range secrets {
		if strings.Contains(got, secret) {
			t.Errorf("Text(%q) = %q, shows %s", msg, got, secret)
		}
	}
	if !strings.Contains(got, " in production") {
		t.Errorf("Text(%q) = %q, masks an env value that is no secret", msg, got)
	}
}
