package config

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestRedacted(t *testing.T) {
	s := ServerSpec{
		Label:   "github",
		Command: "npx",
		Args:    []string{"-y", "server-github", "--token", "ghp_SECRET1", "--url=https://h/mcp?key=SECRET2"},
		Env:     []EnvVar{{"GITHUB_TOKEN", "SECRET3"}, {"MODE", "SECRET4"}, {"EMPTY", ""}},
		URL:     "https://user:SECRET5@mcp.example.com/mcp?access_token=SECRET6",
		Headers: []Header{{"Authorization", "Bearer SECRET7"}, {"X-API-Key", "SECRET8"}},
		Blocked: `cannot resolve "https://h/?token=SECRET9"`,
		Unknown: []string{"cwd"},
	}
	r := s.Redacted()
	got := fmt.Sprintf("%+v", r)
	if strings.Contains(got, "SECRET") {
		t.Errorf("Redacted() = %s, shows a secret", got)
	}
	for _, want := range []string{"github", "npx", "server-github", "--token", "GITHUB_TOKEN", "MODE", "EMPTY", "cwd",
		"--url=https://h/mcp?key=****", "https://user:****@mcp.example.com/mcp?access_token=****", "Authorization", "X-API-Key"} {
		if !strings.Contains(got, want) {
			t.Errorf("Redacted() = %s, lacks %q", got, want)
		}
	}
	if s.Env[0].Value != "SECRET3" || s.Args[3] != "ghp_SECRET1" || s.Headers[0].Value != "Bearer SECRET7" {
		t.Errorf("Redacted modified the spec it was called on: %+v", s)
	}
	if r.Env[2].Value != "" {
		t.Errorf("empty env value shown as %q, want empty", r.Env[2].Value)
	}
}

// TestRedactedCoversEveryField fills every string of a ServerSpec with a
// secret and checks Redacted hides it, except in the fields known to hold
// no secret. A field added to ServerSpec fails here until Redacted masks
// its secrets or it is listed as public below.
func TestRedactedCoversEveryField(t *testing.T) {
	public := map[string]bool{"Label": true, "Format": true, "Transport": true, "Command": true, "Cwd": true,
		"IncludeTools": true, "ExcludeTools": true, "Unknown": true}
	const secret = "Bearer SECRET-VALUE"
	var s ServerSpec
	v := reflect.ValueOf(&s).Elem()
	for i := range v.NumField() {
		fill(v.Field(i), secret)
	}
	r := reflect.ValueOf(s.Redacted())
	for i := range r.NumField() {
		name := r.Type().Field(i).Name
		if public[name] {
			continue
		}
		if got := fmt.Sprintf("%+v", r.Field(i).Interface()); strings.Contains(got, "SECRET-VALUE") {
			t.Errorf("Redacted().%s = %s: the secret shows", name, got)
		}
	}
}

// fill sets every string reachable in v (through slices, pointers and
// structs) to s, except the names of pairs (fields Key and Name), which
// are shown.
func fill(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			switch f := v.Type().Field(i); {
			case !f.IsExported():
			case f.Name == "Key" || f.Name == "Name":
				v.Field(i).SetString("NAME")
			default:
				fill(v.Field(i), s)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), s)
	}
}

// A value the config holds in env or a header is masked wherever else the
// spec shows it: in an argument with no secret-sounding flag, inside a URL,
// in a finding.
func TestRedactedMasksKnownValues(t *testing.T) {
	s := ServerSpec{
		Label:    "db",
		Command:  "server",
		Args:     []string{"--db", "postgres-pw-1234", "--tenant=abcdefgh-tenant-key"},
		Env:      []EnvVar{{"DB_PASSWORD", "postgres-pw-1234"}},
		URL:      "https://h.example/t/abcdefgh-tenant-key/mcp",
		Headers:  []Header{{"Authorization", "Bearer abcdefgh-tenant-key"}},
		Findings: []string{"1:2: server exited: token ghp_abcdefghijklmnopqrstuvwxyz0123456789 refused for postgres-pw-1234"},
	}
	got := fmt.Sprintf("%+v", s.Redacted())
	for _, secret := range []string{"postgres-pw-1234", "abcdefgh-tenant-key", "ghp_"} {
		if strings.Contains(got, secret) {
			t.Errorf("Redacted() = %s, shows %q", got, secret)
		}
	}
	for _, want := range []string{"--db ****", "--tenant=****", "https://h.example/t/****/mcp"} {
		if !strings.Contains(got, want) {
			t.Errorf("Redacted() = %s, lacks %q", got, want)
		}
	}
}
