package model

import "testing"

func TestJudgeCall(t *testing.T) {
	cats := []Catalogue{catalogue("alpha", "request", "shared"), catalogue("beta", "request", "own")}
	reg := mustPolicy("lionagi-legacy").Apply(cats) // the first server declared wins a name
	tests := []struct {
		name, server, wire string
		matches            bool
		elsewhere          string
	}{
		{"alpha's request", "alpha", "request", true, ""},
		{"beta's own", "beta", "own", true, ""},
		{"beta's request, routed to alpha", "beta", "request", false, "alpha"},
		{"a tool nobody listed", "beta", "ghost", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := JudgeCall(reg, tt.server, tt.wire)
			if v.Matches != tt.matches || v.Server != tt.elsewhere {
				t.Errorf("JudgeCall(%q, %q) = %+v, want matches %v, elsewhere %q", tt.server, tt.wire, v, tt.matches, tt.elsewhere)
			}
		})
	}
}

func TestClientByInfo(t *testing.T) {
	tests := []struct {
		info ClientInfo
		want string
		ok   bool
	}{
		{ClientInfo{Name: "claude-code", Version: "2.1.0"}, "claude-code", true},
		{ClientInfo{Name: "cursor-vscode", Version: "9.9"}, "cursor", true},
		{ClientInfo{Name: "nobody"}, "", false},
	}
	for _, tt := range tests {
		c, ok := ClientByInfo(tt.info)
		if ok != tt.ok || c.Name != tt.want {
			t.Errorf("ClientByInfo(%+v) = %q, %v, want %q, %v", tt.info, c.Name, ok, tt.want, tt.ok)
		}
	}
}
