package model

import (
	"fmt"
	"strings"
)

// catalogue builds a catalogue whose rows all carry usable names.
func catalogue(server string, names ...string) Catalogue {
	c := Catalogue{Server: server}
	for _, n := range names {
		c.Tools = append(c.Tools, Tool{Name: n, NameOK: true})
	}
	return c
}

// withRow appends a row as given (usable or not) to a catalogue.
func withRow(c Catalogue, t Tool) Catalogue {
	c.Tools = append(c.Tools[:len(c.Tools):len(c.Tools)], t)
	return c
}

var missingName = Tool{NameProblem: "missing name"}

func mustPolicy(name string) Policy {
	p, ok := PolicyNamed(name)
	if !ok {
		panic("no policy " + name)
	}
	return p
}

// perServer renders each server's live registered names the way ADR-0112
// printed load_mcp_config's result: "alpha:[request] beta:[]".
func perServer(reg *Registry) string {
	var parts []string
	for _, s := range reg.Servers {
		var names []string
		for _, o := range s.Outcomes {
			if o.Live() {
				names = append(names, o.Name)
			}
		}
		parts = append(parts, fmt.Sprintf("%s:[%s]", s.Server, strings.Join(names, " ")))
	}
	return strings.Join(parts, " ")
}

// routes renders the registry as "name->server/wire" in registration order.
func routes(reg *Registry) string {
	var parts []string
	for _, r := range reg.Routes {
		parts = append(parts, fmt.Sprintf("%s->%s/%s", r.Name, r.Server, r.Wire))
	}
	return strings.Join(parts, " ")
}

func outcomeOf(reg *Registry, server string, row int) Outcome {
	s, ok := reg.Server(server)
	if !ok || row >= len(s.Outcomes) {
		panic(fmt.Sprintf("no row %d on server %s", row, server))
	}
	return s.Outcomes[row]
}
