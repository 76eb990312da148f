package config

import (
	"slices"
	"strings"
	"testing"
)

func TestOAuthFields(t *testing.T) {
	env := func(name string) (string, bool) {
		if name == "SECRET" {
			return "from-env-secret", true
		}
		return "", false
	}
	for _, tc := range []struct {
		name, path, data string
		want             OAuth
		secret           string // masked
		finding          string
	}{
		{name: "claude code", path: ".mcp.json",
			data: `{"mcpServers":{"s":{"type":"http","url":"https://x.example/mcp","oauth":{"clientId":"cc-id","callbackPort":8976,"scopes":"read write","authServerMetadataUrl":"https://as.example/m"}}}}`,
			want: OAuth{ClientID: "cc-id", CallbackPort: 8976, Scopes: []string{"read", "write"}}, finding: "oauth.authServerMetadataUrl: mcplens does not apply it"},
		{name: "cursor", path: ".cursor/mcp.json",
			data: `{"mcpServers":{"s":{"url":"https://x.example/mcp","auth":{"CLIENT_ID":"cur-id","CLIENT_SECRET":"${env:SECRET}","scopes":["a","b"]}}}}`,
			want: OAuth{ClientID: "cur-id", ClientSecret: "from-env-secret", Scopes: []string{"a", "b"}}, secret: "from-env-secret"},
		{name: "gemini cli", path: ".gemini/settings.json",
			data: `{"mcpServers":{"s":{"httpUrl":"https://x.example/mcp","oauth":{"enabled":true,"clientId":"gem-id","clientSecret":"literal-secret","scopes":["x"],"redirectUri":"http://localhost:7777/oauth/callback","tokenUrl":"https://as.example/t"}}}}`,
			want: OAuth{ClientID: "gem-id", ClientSecret: "literal-secret", Scopes: []string{"x"}, CallbackPort: 7777}, secret: "literal-secret", finding: "oauth.tokenUrl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseWith(tc.path, []byte(tc.data), Options{LookupEnv: env})
			if err != nil {
				t.Fatal(err)
			}
			s := cfg.Servers[0]
			if s.OAuth == nil {
				t.Fatalf("OAuth = nil, want %+v (findings %q)", tc.want, s.Findings)
			}
			if got := *s.OAuth; got.ClientID != tc.want.ClientID || got.ClientSecret != tc.want.ClientSecret ||
				got.CallbackPort != tc.want.CallbackPort || !slices.Equal(got.Scopes, tc.want.Scopes) {
				t.Errorf("OAuth = %+v, want %+v", got, tc.want)
			}
			if tc.secret != "" && !slices.Contains(s.Expanded, tc.secret) {
				t.Errorf("Expanded = %q, want the client secret masked", s.Expanded)
			}
			if slices.Contains(s.Unknown, "oauth") || slices.Contains(s.Unknown, "auth") {
				t.Errorf("the oauth object is an unknown key: %q", s.Unknown)
			}
			if tc.finding != "" && !slices.ContainsFunc(s.Findings, func(f string) bool { return strings.Contains(f, tc.finding) }) {
				t.Errorf("findings %q, want one on %q", s.Findings, tc.finding)
			}
		})
	}
}

func TestOAuthBadPort(t *testing.T) {
	_, err := Parse(".mcp.json", []byte(`{"mcpServers":{"s":{"type":"http","url":"https://x.example/mcp","oauth":{"callbackPort":"80"}}}}`))
	if err == nil || !strings.Contains(err.Error(), "want a port number") {
		t.Fatalf("Parse = %v, want a port error", err)
	}
}
