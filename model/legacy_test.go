package model

import (
	"strings"
	"testing"
)

// The measurement of ADR-0112 P1/P2: servers alpha and beta each advertise
// only request.
func TestLegacyMeasurement(t *testing.T) {
	alpha, beta := catalogue("alpha", "request"), catalogue("beta", "request")
	tests := []struct {
		name     string
		cats     []Catalogue
		want     string // per-server live names
		winner   string
		loser    string // "" when nothing is lost
		wantMiss []string
	}{
		{"alpha alone", []Catalogue{alpha}, "alpha:[request]", "alpha", "", nil},
		{"beta alone", []Catalogue{beta}, "beta:[request]", "beta", "", nil},
		{"both", []Catalogue{alpha, beta}, "alpha:[request] beta:[]", "alpha", "beta", []string{"request"}},
		{"swapped", []Catalogue{beta, alpha}, "beta:[request] alpha:[]", "beta", "alpha", []string{"request"}},
	}
	p := mustPolicy("lionagi-legacy")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := perServer(reg); got != tt.want {
				t.Errorf("Apply(%s) per server = %q, want %q", tt.name, got, tt.want)
			}
			if len(reg.Routes) != 1 {
				t.Fatalf("Apply(%s) has %d routes, want 1", tt.name, len(reg.Routes))
			}
			rt, ok := reg.Lookup("request")
			if !ok || rt.Server != tt.winner || rt.Wire != "request" {
				t.Errorf("Lookup(%q) = %+v, %v, want server %s", "request", rt, ok, tt.winner)
			}
			if tt.loser == "" {
				return
			}
			o := outcomeOf(reg, tt.loser, 0)
			if o.Kind != Dropped || o.By != tt.winner || o.Reason != "name taken by "+tt.winner {
				t.Errorf("loser outcome = %v by %q (%q), want dropped by %s (%q)",
					o.Kind, o.By, o.Reason, tt.winner, "name taken by "+tt.winner)
			}
			s, _ := reg.Server(tt.loser)
			if s.Registered != 0 || s.Advertised != 1 || strings.Join(s.Missing, ",") != "request" {
				t.Errorf("loser result = %d/%d missing %v, want 0/1 missing [request]", s.Registered, s.Advertised, s.Missing)
			}
		})
	}
}

func TestLegacyUpdate(t *testing.T) {
	p := mustPolicy("lionagi-legacy-update")
	tests := []struct {
		name       string
		cats       []Catalogue
		wantRoutes string
		displaced  string // server whose row 0 is displaced
		wantBy     string
		wantReason string
	}{
		{
			name:       "beta overwrites alpha",
			cats:       []Catalogue{catalogue("alpha", "request"), catalogue("beta", "request")},
			wantRoutes: "request->beta/request",
			displaced:  "alpha", wantBy: "beta",
			wantReason: "overwritten by beta; calls to request now go to beta",
		},
		{
			name:       "swapped",
			cats:       []Catalogue{catalogue("beta", "request"), catalogue("alpha", "request")},
			wantRoutes: "request->alpha/request",
			displaced:  "beta", wantBy: "alpha",
			wantReason: "overwritten by alpha; calls to request now go to alpha",
		},
		{
			name: "chain names the final route",
			cats: []Catalogue{catalogue("alpha", "request", "ping"), catalogue("beta", "request"),
				catalogue("gamma", "request")},
			wantRoutes: "request->gamma/request ping->alpha/ping",
			displaced:  "alpha", wantBy: "beta",
			wantReason: "overwritten by beta; calls to request now go to gamma",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := routes(reg); got != tt.wantRoutes {
				t.Errorf("Apply(%s) routes = %q, want %q", tt.name, got, tt.wantRoutes)
			}
			o := outcomeOf(reg, tt.displaced, 0)
			if o.Kind != Displaced || o.By != tt.wantBy || o.Reason != tt.wantReason {
				t.Errorf("outcome = %v by %q (%q), want displaced by %s (%q)", o.Kind, o.By, o.Reason, tt.wantBy, tt.wantReason)
			}
			if s, _ := reg.Server(tt.displaced); len(s.Missing) != 1 || s.Missing[0] != "request" {
				t.Errorf("Missing = %v, want [request]", s.Missing)
			}
		})
	}
}

func TestLegacyRows(t *testing.T) {
	cat := withRow(catalogue("alpha", "a", "a"), missingName)
	cat = withRow(cat, Tool{Name: "b", NameOK: true})
	tests := []struct {
		policy string
		want   []OutcomeKind
		reason []string
	}{
		{"lionagi-legacy", []OutcomeKind{Registered, Dropped, Dropped, Registered},
			[]string{"", "name taken by alpha; this server lists a more than once", "row has no usable name: missing name", ""}},
		{"lionagi-legacy-update", []OutcomeKind{Displaced, Registered, Dropped, Registered},
			[]string{"overwritten by alpha; calls to a now go to alpha", "", "row has no usable name: missing name", ""}},
	}
	for _, tt := range tests {
		reg := mustPolicy(tt.policy).Apply([]Catalogue{cat})
		for i, o := range reg.Servers[0].Outcomes {
			if o.Kind != tt.want[i] || o.Reason != tt.reason[i] {
				t.Errorf("%s: row %d = %v (%q), want %v (%q)", tt.policy, i, o.Kind, o.Reason, tt.want[i], tt.reason[i])
			}
		}
		if got := routes(reg); got != "a->alpha/a b->alpha/b" {
			t.Errorf("%s: routes = %q, want %q", tt.policy, got, "a->alpha/a b->alpha/b")
		}
	}
}
