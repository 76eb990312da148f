package model

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// invariantCatalogues is a varied set of configs: every collision class of
// docs/naming.md that applies to these policies, rows without names, empty
// servers, hostile and over-long names.
func invariantCatalogues() map[string][]Catalogue {
	long := strings.Repeat("x", 80)
	return map[string][]Catalogue{
		"empty":            nil,
		"no tools":         {{Server: "alpha"}, {Server: "beta"}},
		"request twice":    {catalogue("alpha", "request"), catalogue("beta", "request")},
		"labels alike":     {catalogue("foo.bar", "evil"), catalogue("foo_bar", "evil")},
		"separator":        {catalogue("a", "b__c"), catalogue("a__b", "c")},
		"listed twice":     {catalogue("alpha", "request", "ping", "request")},
		"nameless":         {withRow(withRow(catalogue("alpha", "a"), missingName), Tool{NameProblem: "empty name"})},
		"long and hostile": {catalogue("s", long, "evil\u202e", "\x1b[31m", "caf\u00e9", "a.b:c"), catalogue(long, "t")},
		"same label twice": {catalogue("alpha", "x"), catalogue("alpha", "x", "y")},
		"three-way": {catalogue("alpha", "request", "search"), catalogue("beta", "search", "request"),
			catalogue("gamma", "request"), catalogue("delta")},
		"empty label": {catalogue("", "x"), catalogue("", "")},
	}
}

func TestPolicyInvariants(t *testing.T) {
	for _, p := range append(Policies(), Policy{}) {
		for name, cats := range invariantCatalogues() {
			reg := p.Apply(cats)
			checkInvariants(t, p.Name+"/"+name, cats, reg)
			if again := p.Apply(cats); !reflect.DeepEqual(reg, again) {
				t.Errorf("%s/%s: Apply is not deterministic", p.Name, name)
			}
		}
	}
}

// checkInvariants holds for every policy and input: one outcome per row in
// row order, every live outcome has exactly one route and every route one
// live outcome, Lookup finds every route, and the postcondition fields add up.
func checkInvariants(t *testing.T, label string, cats []Catalogue, reg *Registry) {
	t.Helper()
	if len(reg.Servers) != len(cats) {
		t.Fatalf("%s: %d server results for %d catalogues", label, len(reg.Servers), len(cats))
	}
	liveCount := 0
	for ci, cat := range cats {
		s := reg.Servers[ci]
		if s.Server != cat.Server || s.Advertised != len(cat.Tools) || len(s.Outcomes) != len(cat.Tools) {
			t.Errorf("%s: server %d = %q with %d/%d outcomes, want %q with %d", label, ci,
				s.Server, len(s.Outcomes), s.Advertised, cat.Server, len(cat.Tools))
			continue
		}
		live := 0
		liveWire := map[string]bool{}
		for i, o := range s.Outcomes {
			if o.Index != i || o.Server != cat.Server {
				t.Errorf("%s: %s row %d outcome is for %s row %d", label, cat.Server, i, o.Server, o.Index)
			}
			if o.Kind != Registered && o.Kind != Renamed && o.Kind != Dropped && o.Kind != Displaced {
				t.Errorf("%s: %s row %d has kind %v", label, cat.Server, i, o.Kind)
			}
			if !o.Live() {
				if o.Reason == "" {
					t.Errorf("%s: %s row %d is %v with no reason", label, cat.Server, i, o.Kind)
				}
				continue
			}
			live++
			liveWire[o.Wire] = true
			if (o.Kind == Registered) != (o.Name == o.Wire) {
				t.Errorf("%s: %s row %d is %v with name %q, wire %q", label, cat.Server, i, o.Kind, o.Name, o.Wire)
			}
			rt, ok := reg.Lookup(o.Name)
			if !ok || rt.Server != cat.Server || rt.Index != i || rt.Wire != cat.Tools[i].Name || rt.Name != o.Name {
				t.Errorf("%s: Lookup(%q) = %+v, %v, want %s row %d", label, o.Name, rt, ok, cat.Server, i)
			}
		}
		if s.Registered != live {
			t.Errorf("%s: %s Registered = %d, want %d live rows", label, cat.Server, s.Registered, live)
		}
		var missing []string
		for _, tool := range cat.Tools {
			if tool.NameOK && tool.Name != "" && !liveWire[tool.Name] {
				liveWire[tool.Name] = true
				missing = append(missing, tool.Name)
			}
		}
		slices.Sort(missing)
		if !slices.Equal(missing, s.Missing) {
			t.Errorf("%s: %s Missing = %q, want %q", label, cat.Server, s.Missing, missing)
		}
		liveCount += live
	}
	if len(reg.Routes) != liveCount {
		t.Errorf("%s: %d routes for %d live outcomes", label, len(reg.Routes), liveCount)
	}
	seen := map[string]bool{}
	for _, rt := range reg.Routes {
		if seen[rt.Name] {
			t.Errorf("%s: route %q appears twice", label, rt.Name)
		}
		seen[rt.Name] = true
		if got, ok := reg.Lookup(rt.Name); !ok || got != rt {
			t.Errorf("%s: Lookup(%q) = %+v, %v, want %+v", label, rt.Name, got, ok, rt)
		}
	}
}

func TestPoliciesList(t *testing.T) {
	var names []string
	for _, p := range Policies() {
		names = append(names, p.Name)
		if p.Summary == "" {
			t.Errorf("policy %s has no Summary", p.Name)
		}
		if got, ok := PolicyNamed(p.Name); !ok || got.Name != p.Name {
			t.Errorf("PolicyNamed(%q) = %v, %v", p.Name, got.Name, ok)
		}
	}
	if got, want := strings.Join(names, " "), "lionagi-legacy lionagi-legacy-update lionagi qwen symfonic "+
		"claude-code codex gemini-cli vscode openai-agents"; got != want {
		t.Errorf("Policies() = %q, want %q", got, want)
	}
	if _, ok := PolicyNamed("claude"); ok {
		t.Errorf("PolicyNamed(%q) found a policy", "claude")
	}
}

func TestRegistryLookups(t *testing.T) {
	reg := mustPolicy("lionagi").Apply([]Catalogue{catalogue("alpha", "request")})
	if _, ok := reg.Lookup("request"); ok {
		t.Errorf("Lookup(%q) found the wire name, want only registered names", "request")
	}
	if s, ok := reg.Server("alpha"); !ok || s.Server != "alpha" {
		t.Errorf("Server(%q) = %v, %v", "alpha", s, ok)
	}
	if _, ok := reg.Server("beta"); ok {
		t.Errorf("Server(%q) found a server", "beta")
	}
	var nilReg *Registry
	if _, ok := nilReg.Lookup("x"); ok {
		t.Errorf("nil Registry Lookup found a route")
	}
	if _, ok := nilReg.Server("x"); ok {
		t.Errorf("nil Registry Server found a server")
	}
	zero := Policy{}.Apply([]Catalogue{catalogue("alpha", "request")})
	if o := zero.Servers[0].Outcomes[0]; o.Kind != Dropped || o.Reason != "no naming policy selected" || len(zero.Routes) != 0 {
		t.Errorf("Policy{}.Apply row = %v (%q), want dropped with no routes", o.Kind, o.Reason)
	}
}

func TestApplyDoesNotModifyInput(t *testing.T) {
	cats := []Catalogue{catalogue("foo.bar", "evil", "evil"), withRow(catalogue("b", "evil"), missingName)}
	before := []Catalogue{catalogue("foo.bar", "evil", "evil"), withRow(catalogue("b", "evil"), missingName)}
	for _, p := range Policies() {
		p.Apply(cats)
		if !reflect.DeepEqual(cats, before) {
			t.Fatalf("%s.Apply modified its input", p.Name)
		}
	}
}

func TestOutcomeKindString(t *testing.T) {
	for k, want := range map[OutcomeKind]string{Registered: "registered", Renamed: "renamed",
		Dropped: "dropped", Displaced: "displaced", 9: "OutcomeKind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("OutcomeKind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
	for s, want := range map[Severity]string{Pass: "pass", Warn: "warn", Fail: "fail", 7: "Severity(7)"} {
		if got := s.String(); got != want {
			t.Errorf("Severity(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}

func TestUnusableRows(t *testing.T) {
	tests := []struct {
		name string
		row  Tool
		want string
	}{
		{"missing", Tool{}, "row has no usable name: missing name"},
		{"problem given", Tool{NameProblem: "name is a number, not a string"}, "row has no usable name: name is a number, not a string"},
		{"empty marked usable", Tool{NameOK: true}, "row has no usable name: empty name"},
	}
	for _, p := range Policies() {
		for _, tt := range tests {
			reg := p.Apply([]Catalogue{withRow(catalogue("alpha", "ok"), tt.row)})
			if o := reg.Servers[0].Outcomes[1]; o.Kind != Dropped || o.Reason != tt.want || o.Wire != "" || o.Name != "" {
				t.Errorf("%s: row %s = %v %q/%q (%q), want dropped (%q)", p.Name, tt.name, o.Kind, o.Wire, o.Name, o.Reason, tt.want)
			}
			if o := reg.Servers[0].Outcomes[0]; !o.Live() {
				t.Errorf("%s: sibling of row %s = %v (%q), want it live", p.Name, tt.name, o.Kind, o.Reason)
			}
		}
	}
}
