package model

import (
	"strings"
	"testing"
)

func TestSymfonic(t *testing.T) {
	tests := []struct {
		name    string
		cats    []Catalogue
		routes  string
		dropped map[string][]int // server -> dropped rows
		reason  string           // substring of the first dropped row's reason
	}{
		{
			name:   "one server keeps bare names",
			cats:   []Catalogue{catalogue("alpha", "request", "ping")},
			routes: "request->alpha/request ping->alpha/ping",
		},
		{
			name:   "two servers both qualify",
			cats:   []Catalogue{catalogue("alpha", "request", "ping"), catalogue("beta", "request")},
			routes: "alpha.request->alpha/request ping->alpha/ping beta.request->beta/request",
		},
		{
			name: "malformed row dropped alone",
			cats: []Catalogue{withRow(catalogue("alpha", "a"), Tool{NameProblem: "name is a number, not a string"}),
				catalogue("beta", "b")},
			routes:  "a->alpha/a b->beta/b",
			dropped: map[string][]int{"alpha": {1}},
			reason:  "row has no usable name: name is a number, not a string",
		},
		{
			name:    "one server listing a name twice is not a cross-server collision",
			cats:    []Catalogue{catalogue("alpha", "request", "request")},
			routes:  "request->alpha/request",
			dropped: map[string][]int{"alpha": {1}},
			reason:  "name request already claimed by route on server alpha",
		},
		{
			name:    "listed twice and shared",
			cats:    []Catalogue{catalogue("alpha", "request", "request"), catalogue("beta", "request")},
			routes:  "alpha.request->alpha/request beta.request->beta/request",
			dropped: map[string][]int{"alpha": {1}},
			reason:  "name alpha.request already claimed by route on server alpha",
		},
		{
			name: "qualified forms still collide: first discovered kept",
			cats: []Catalogue{catalogue("a.b", "c"), catalogue("a", "b.c"),
				catalogue("x", "c", "b.c")},
			routes:  "a.b.c->a.b/c x.c->x/c x.b.c->x/b.c",
			dropped: map[string][]int{"a": {0}},
			reason:  "name a.b.c already claimed by route on server a.b",
		},
	}
	p := mustPolicy("symfonic")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := routes(reg); got != tt.routes {
				t.Errorf("Apply(%s) routes = %q, want %q", tt.name, got, tt.routes)
			}
			first := true
			for _, s := range reg.Servers {
				for i, o := range s.Outcomes {
					wantDrop := false
					for _, r := range tt.dropped[s.Server] {
						wantDrop = wantDrop || r == i
					}
					if (o.Kind == Dropped) != wantDrop {
						t.Errorf("%s row %d = %v (%q), want dropped = %v", s.Server, i, o.Kind, o.Reason, wantDrop)
					}
					if wantDrop && first {
						first = false
						if !strings.Contains(o.Reason, tt.reason) {
							t.Errorf("%s row %d reason = %q, want it to contain %q", s.Server, i, o.Reason, tt.reason)
						}
					}
					if o.Live() && (o.Kind == Registered) != (o.Name == o.Wire) {
						t.Errorf("%s row %d kind %v for name %q, wire %q", s.Server, i, o.Kind, o.Name, o.Wire)
					}
				}
			}
		})
	}
}

func TestSymfonicReason(t *testing.T) {
	reg := mustPolicy("symfonic").Apply([]Catalogue{catalogue("alpha", "request"), catalogue("beta", "request")})
	o := outcomeOf(reg, "beta", 0)
	want := "request is advertised by 2 servers (alpha, beta): qualified"
	if o.Kind != Renamed || o.Reason != want {
		t.Errorf("beta row = %v (%q), want renamed (%q)", o.Kind, o.Reason, want)
	}
}
