package model

import (
	"strings"
	"testing"
)

func TestLionagiQualifiesAlways(t *testing.T) {
	p := mustPolicy("lionagi")
	tests := []struct {
		name string
		cats []Catalogue
		want string
	}{
		{"alone", []Catalogue{catalogue("alpha", "request")},
			"mcp__alpha__request->alpha/request"},
		{"both", []Catalogue{catalogue("alpha", "request"), catalogue("beta", "request")},
			"mcp__alpha__request->alpha/request mcp__beta__request->beta/request"},
	}
	for _, tt := range tests {
		reg := p.Apply(tt.cats)
		if got := routes(reg); got != tt.want {
			t.Errorf("Apply(%s) routes = %q, want %q", tt.name, got, tt.want)
		}
		for _, s := range reg.Servers {
			if s.Failed || s.Registered != 1 || len(s.Missing) != 0 || s.Outcomes[0].Kind != Renamed {
				t.Errorf("Apply(%s) server %s = %+v, want one renamed row and no failure", tt.name, s.Server, s)
			}
		}
	}
}

func TestLionagiPostcondition(t *testing.T) {
	long := strings.Repeat("l", 60)
	tests := []struct {
		name    string
		cats    []Catalogue
		server  string // the server under test
		wantErr string // "" when the server must pass
		row     int
		kind    OutcomeKind
		reason  []string // substrings of the row's reason
		routes  string
	}{
		{
			name:   "zero tools pass",
			cats:   []Catalogue{{Server: "resources"}},
			server: "resources",
		},
		{
			name:    "over 64",
			cats:    []Catalogue{catalogue(long, "request")},
			server:  long,
			wantErr: `advertised 1 tool(s) but 0 registered; missing: ["request"]`,
			kind:    Dropped,
			reason: []string{`server "` + long + `"`, `tool "request"`, "(74 characters)", "over the 64 allowed",
				"load the server under a shorter config key (at most 50 characters for this tool)"},
		},
		{
			name:    "bad character",
			cats:    []Catalogue{catalogue("zybio", "literature.search_pubmed")},
			server:  "zybio",
			wantErr: `advertised 1 tool(s) but 0 registered; missing: ["literature.search_pubmed"]`,
			kind:    Dropped,
			reason:  []string{`server "zybio"`, `tool "literature.search_pubmed"`, "(36 characters)", `has '.'`},
		},
		{
			name:    "fail-closed withholds valid rows",
			cats:    []Catalogue{catalogue("alpha", "ok", "bad name", "fine")},
			server:  "alpha",
			wantErr: `advertised 3 tool(s) but 2 registered; missing: ["bad name"]`,
			row:     2,
			kind:    Dropped,
			reason:  []string{"withheld: server alpha failed its postcondition (fail-closed)"},
		},
		{
			name:    "collision after qualification fails the later server",
			cats:    []Catalogue{catalogue("a", "b__c"), catalogue("a__b", "c", "d")},
			server:  "a__b",
			wantErr: `advertised 2 tool(s) but 1 registered; missing: ["c"]`,
			kind:    Dropped,
			reason:  []string{"name mcp__a__b__c taken by server a (tool b__c)"},
			routes:  "mcp__a__b__c->a/b__c",
		},
		{
			name:    "collision after qualification, order swapped",
			cats:    []Catalogue{catalogue("a__b", "c"), catalogue("a", "b__c")},
			server:  "a",
			wantErr: `advertised 1 tool(s) but 0 registered; missing: ["b__c"]`,
			kind:    Dropped,
			reason:  []string{"taken by server a__b (tool c)"},
			routes:  "mcp__a__b__c->a__b/c",
		},
		{
			name:   "a failed server holds no name",
			cats:   []Catalogue{catalogue("a__b", "c", "bad.name"), catalogue("a", "b__c")},
			server: "a",
			kind:   Renamed,
			routes: "mcp__a__b__c->a/b__c",
		},
		{
			name:   "duplicate within a server registers once",
			cats:   []Catalogue{catalogue("alpha", "request", "request")},
			server: "alpha",
			row:    1,
			kind:   Dropped,
			reason: []string{"duplicate: server alpha lists request more than once; row 0 holds mcp__alpha__request"},
			routes: "mcp__alpha__request->alpha/request",
		},
		{
			name:   "a row without a name is dropped alone",
			cats:   []Catalogue{withRow(catalogue("alpha", "request"), missingName)},
			server: "alpha",
			row:    1,
			kind:   Dropped,
			reason: []string{"row has no usable name: missing name"},
			routes: "mcp__alpha__request->alpha/request",
		},
	}
	p := mustPolicy("lionagi")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			s, _ := reg.Server(tt.server)
			if s.Failed != (tt.wantErr != "") || s.Err != tt.wantErr {
				t.Errorf("server %s: Failed = %v, Err = %q, want %q", tt.server, s.Failed, s.Err, tt.wantErr)
			}
			if tt.wantErr != "" {
				if s.Registered != 0 {
					t.Errorf("failed server %s has %d live rows, want 0", tt.server, s.Registered)
				}
				for _, r := range reg.Routes {
					if r.Server == tt.server {
						t.Errorf("failed server %s still routes %s", tt.server, r.Name)
					}
				}
			}
			if len(s.Outcomes) == 0 {
				return
			}
			o := s.Outcomes[tt.row]
			if o.Kind != tt.kind {
				t.Errorf("row %d kind = %v, want %v (reason %q)", tt.row, o.Kind, tt.kind, o.Reason)
			}
			for _, want := range tt.reason {
				if !strings.Contains(o.Reason, want) {
					t.Errorf("row %d reason = %q, want it to contain %q", tt.row, o.Reason, want)
				}
			}
			if tt.kind == Dropped && o.Wire != "" && o.Name != lionagiName(tt.server, o.Wire) {
				t.Errorf("dropped row name = %q, want %q kept", o.Name, lionagiName(tt.server, o.Wire))
			}
			if tt.routes != "" {
				if got := routes(reg); got != tt.routes {
					t.Errorf("routes = %q, want %q", got, tt.routes)
				}
			}
		})
	}
}

func TestLionagiProblem(t *testing.T) {
	tests := []struct {
		server, tool string
		want         []string // substrings; nil means valid
	}{
		{"alpha", "request", nil},
		{strings.Repeat("s", 51), "tool_x", nil}, // exactly 64
		{strings.Repeat("s", 52), "tool_x", []string{"(65 characters)", "at most 51 characters"}},
		{"a", strings.Repeat("t", 60), []string{"(68 characters)", "no room for a server label"}},
		{strings.Repeat("l", 60), "x.y", []string{"and is over the 64 allowed", "none under lionagi: no config key fixes a character in the tool's own name"}},
		{strings.Repeat("l", 55) + ".", "xy", []string{"letters, digits, '_' and '-', at most 55 characters"}},
		{"my.server", "x", []string{`has '.'`, "config key of letters, digits"}},
		{"alpha", "caf\u00e9", []string{`has 'é'`, "remedy: none under lionagi"}},
		{"alpha", "evil\u202e", []string{`has '\u202e'`}},
	}
	for _, tt := range tests {
		got := lionagiProblem(tt.server, tt.tool, lionagiName(tt.server, tt.tool))
		if (got == "") != (tt.want == nil) {
			t.Errorf("lionagiProblem(%q, %q) = %q, want valid = %v", tt.server, tt.tool, got, tt.want == nil)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("lionagiProblem(%q, %q) = %q, want it to contain %q", tt.server, tt.tool, got, w)
			}
		}
	}
}
