package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Resolve finds the route name names in r: a registered name, or else a
// wire name that exactly one server advertises and that has a route. how
// says which it was ("registered name", "wire name, registered as X"). A
// name that resolves to no route, or to the rows of several servers, is
// an error that says why, listing the candidates.
func (r *Registry) Resolve(name string) (rt Route, how string, err error) {
	if rt, ok := r.Lookup(name); ok {
		return rt, "registered name", nil
	}
	var rows []Outcome
	var servers []string
	for _, s := range r.Servers {
		for _, o := range s.Outcomes {
			if o.Wire == name {
				rows = append(rows, o)
				if !slices.Contains(servers, o.Server) {
					servers = append(servers, o.Server)
				}
			}
		}
	}
	q := Sanitize(fmt.Sprintf("%q", name))
	switch len(servers) {
	case 0:
		return rt, "", fmt.Errorf("no tool %s under policy %s: not a registered name, and no server advertises it as a wire name", q, r.Policy)
	case 1:
		for _, o := range rows {
			if o.Live() {
				if rt, ok := r.Lookup(o.Name); ok {
					return rt, "wire name, registered as " + o.Name, nil
				}
			}
		}
		o := rows[0]
		return rt, "", fmt.Errorf("wire name %s of %s has no route under policy %s: %s: %s", q, Sanitize(o.Server), r.Policy, o.Kind, Sanitize(o.Reason))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wire name %s is advertised by %d servers; under policy %s call one by its registered name:", q, len(servers), r.Policy)
	for _, o := range rows {
		name := o.Name
		if name == "" {
			name = "(none)"
		}
		line := fmt.Sprintf("server %s: registered as %s", o.Server, name)
		if !o.Live() {
			line += fmt.Sprintf(" (%s: %s)", o.Kind, o.Reason)
		}
		b.WriteString("\n  " + Sanitize(line))
	}
	return rt, "", errors.New(b.String())
}
