package model

import (
	"slices"
	"testing"
)

// TestFilteredRowsReachNoPolicy checks, under every policy, that a row the
// config withholds is Filtered with the config's reason, holds no route,
// is not missing, and takes no name from another server's row.
func TestFilteredRowsReachNoPolicy(t *testing.T) {
	alpha := catalogue("alpha", "search", "request")
	alpha.Tools[1].FilteredBy = "excludeTools lists it"
	beta := catalogue("beta", "request", "fetch")
	for _, p := range Policies() {
		t.Run(p.Name, func(t *testing.T) {
			reg := p.Apply([]Catalogue{alpha, beta})
			o := outcomeOf(reg, "alpha", 1)
			if o.Kind != Filtered || o.Reason != "filtered by config: excludeTools lists it" || o.Wire != "request" {
				t.Errorf("filtered row = %v %q (wire %q), want filtered with the config's reason", o.Kind, o.Reason, o.Wire)
			}
			for _, rt := range reg.Routes {
				if rt.Server == "alpha" && rt.Wire == "request" {
					t.Errorf("route %+v leads to the filtered row", rt)
				}
			}
			a, _ := reg.Server("alpha")
			if slices.Contains(a.Missing, "request") || a.Failed {
				t.Errorf("alpha missing %q, failed %v: a filtered row is neither", a.Missing, a.Failed)
			}
			if b := outcomeOf(reg, "beta", 0); !b.Live() {
				t.Errorf("beta's request = %v (%s), want live: the filtered row claims no name", b.Kind, b.Reason)
			}
		})
	}
}

func TestFilteredString(t *testing.T) {
	if got := Filtered.String(); got != "filtered" {
		t.Errorf("Filtered.String() = %q, want %q", got, "filtered")
	}
}
