package model

import (
	"slices"
	"testing"
)

func TestClientsReferToPolicies(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Clients() {
		if seen[c.Key()] {
			t.Errorf("profile %s listed twice", c.Key())
		}
		seen[c.Key()] = true
		if _, ok := PolicyNamed(c.Policy); !ok {
			t.Errorf("profile %s: policy %q does not exist", c.Key(), c.Policy)
		}
		if c.Handshake.ClientInfo.Name == "" || c.Handshake.ProtocolVersion == "" {
			t.Errorf("profile %s: handshake %+v lacks clientInfo.name or protocolVersion", c.Key(), c.Handshake)
		}
		if len(c.Sources) == 0 {
			t.Errorf("profile %s has no source", c.Key())
		}
		for _, s := range c.Sources {
			if s.Field == "" || s.From == "" || s.Read == "" {
				t.Errorf("profile %s: source %+v lacks a field, where or when", c.Key(), s)
			}
		}
	}
	for _, p := range Policies() {
		if _, err := ClientNamed(p.Name); err != nil {
			t.Errorf("policy %s has no client profile: %v", p.Name, err)
		}
	}
}

func TestClientNamed(t *testing.T) {
	tests := []struct {
		name, spec, want string
		wantErr          bool
	}{
		{name: "newest version", spec: "claude-desktop", want: "claude-desktop@2026"},
		{name: "exact version", spec: "claude-desktop@2025", want: "claude-desktop@2025"},
		{name: "unversioned", spec: "lionagi", want: "lionagi"},
		{name: "unknown version", spec: "vscode@0.1", wantErr: true},
		{name: "unknown client", spec: "emacs", wantErr: true},
		{name: "empty", spec: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ClientNamed(tt.spec)
			if (err != nil) != tt.wantErr || err == nil && c.Key() != tt.want {
				t.Errorf("ClientNamed(%q) = %q, %v; want %q (error %v)", tt.spec, c.Key(), err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestCapabilitiesDeclares(t *testing.T) {
	vscode, _ := ClientNamed("vscode")
	codex, _ := ClientNamed("codex")
	methods := []string{MethodRootsList, MethodCreateMessage, MethodElicit}
	for _, tt := range []struct {
		c    Client
		want []string
	}{
		{vscode, methods},
		{codex, []string{MethodElicit}},
		{neutral("qwen"), nil},
	} {
		var got []string
		for _, m := range methods {
			if tt.c.Handshake.Capabilities.Declares(m) {
				got = append(got, m)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s declares %q, want %q", tt.c.Key(), got, tt.want)
		}
	}
	if got := vscode.Handshake.Capabilities.String(); got != "roots, sampling, elicitation(form,url), tasks" {
		t.Errorf("vscode capabilities = %q", got)
	}
	if !neutral("qwen").Neutral() || vscode.Neutral() {
		t.Error("Neutral: want qwen neutral and vscode not")
	}
}
