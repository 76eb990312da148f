package model

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	cats := []Catalogue{catalogue("alpha", "request", "only"), catalogue("beta", "request")}
	tests := []struct {
		name, policy, query string
		// want is "server/wire how" for a route, or the start of the error.
		want string
	}{
		{"registered name", "lionagi", "mcp__beta__request", "beta/request registered name"},
		{"wire name of one server", "lionagi", "only", "alpha/only wire name, registered as mcp__alpha__only"},
		{"wire name of two servers", "lionagi", "request", `wire name "request" is advertised by 2 servers; under policy lionagi call one by its registered name:
  server alpha: registered as mcp__alpha__request
  server beta: registered as mcp__beta__request`},
		{"registered name first", "lionagi-legacy", "request", "alpha/request registered name"},
		{"unknown", "lionagi", "nope", `no tool "nope" under policy lionagi`},
		{"no route", "lionagi", "mcp__alpha__only_not", `no tool "mcp__alpha__only_not"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := mustPolicy(tc.policy).Apply(cats)
			rt, how, err := reg.Resolve(tc.query)
			got := rt.Server + "/" + rt.Wire + " " + how
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("Resolve(%q) = %q, want %q", tc.query, got, tc.want)
			}
		})
	}
	t.Run("wire name without a route", func(t *testing.T) {
		long := strings.Repeat("x", 70)
		reg := mustPolicy("lionagi").Apply([]Catalogue{catalogue("g", long)})
		if _, _, err := reg.Resolve(long); err == nil || !strings.HasPrefix(err.Error(), `wire name "`+long+`" of g has no route under policy lionagi: dropped: `) {
			t.Errorf("Resolve(long) error = %v, want no route", err)
		}
	})
	t.Run("registered name of another row", func(t *testing.T) {
		reg := mustPolicy("lionagi-legacy").Apply(cats)
		_, _, err := reg.Resolve("only")
		if err != nil {
			t.Fatalf("Resolve(only) = %v", err)
		}
		dropped := mustPolicy("lionagi-legacy").Apply([]Catalogue{catalogue("a", "x"), catalogue("b", "x", "y")})
		// b's x lost the name to a's; its wire name x is a's registered name.
		if rt, how, err := dropped.Resolve("x"); err != nil || rt.Server != "a" || how != "registered name" {
			t.Errorf("Resolve(x) = %v, %q, %v, want a's route by registered name", rt, how, err)
		}
	})
}
