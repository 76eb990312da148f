package model

import (
	"strconv"
	"strings"
)

// A CollisionClass says why several rows wanted one registered name.
type CollisionClass int

const (
	// CollisionSameWire: different servers advertise the same wire name.
	CollisionSameWire CollisionClass = iota
	// CollisionLabelsAlike: the raw mcp__{server}__{tool} forms differ but
	// sanitize alike (foo.bar and foo_bar).
	CollisionLabelsAlike
	// CollisionSeparator: server + "__" + tool is the same string (a + b__c,
	// a__b + c).
	CollisionSeparator
	// CollisionPrefixReuse: gemini-cli adds its "mcp_" prefix to one name
	// and not the other, whose server label already starts with it.
	CollisionPrefixReuse
	// CollisionTruncation: the names were different until cut to length.
	CollisionTruncation
	// CollisionDuplicate: one server lists the same wire name more than once.
	CollisionDuplicate
	// CollisionOther: none of the above.
	CollisionOther
)

// String returns the class as the Collisions view spells it.
func (c CollisionClass) String() string {
	switch c {
	case CollisionSameWire:
		return "same wire name"
	case CollisionLabelsAlike:
		return "labels sanitize alike"
	case CollisionSeparator:
		return "separator ambiguity"
	case CollisionPrefixReuse:
		return "prefix re-use"
	case CollisionTruncation:
		return "truncation"
	case CollisionDuplicate:
		return "duplicate in one server"
	case CollisionOther:
		return "other"
	}
	return "CollisionClass(" + strconv.Itoa(int(c)) + ")"
}

// A Collision is one registered name claimed by more than one row.
type Collision struct {
	// Name is the registered name claimed more than once.
	Name  string
	Class CollisionClass
	// Rows is every row that claimed Name, in processing order: servers in
	// declaration order, rows in advertised order.
	Rows []Outcome
	// Winner is the index in Rows of the row whose route holds Name, or -1
	// when none does (the name was withheld or the load failed).
	Winner int
}

// Collisions returns every name claimed by more than one row under the
// registry's policy, in the order each name was first claimed. A row claims
// the name in its Outcome.Name, whatever its kind: the winner, the rows it
// beat, and rows that lost for another reason while holding the name (a
// failed load, a withheld server). Rows the policy never named (no usable
// name, a server codex refuses) claim nothing.
func (r *Registry) Collisions() []Collision {
	if r == nil {
		return nil
	}
	at := make(map[string]int) // name -> position in out
	var out []Collision
	for _, s := range r.Servers {
		for _, o := range s.Outcomes {
			if o.Name == "" {
				continue
			}
			i, ok := at[o.Name]
			if !ok {
				i = len(out)
				at[o.Name] = i
				out = append(out, Collision{Name: o.Name})
			}
			out[i].Rows = append(out[i].Rows, o)
		}
	}
	kept := out[:0]
	for _, c := range out {
		if len(c.Rows) < 2 {
			continue
		}
		c.Class = classify(r.Policy, c.Rows)
		c.Winner = -1
		if rt, ok := r.Lookup(c.Name); ok {
			for j, o := range c.Rows {
				if o.Live() && o.Server == rt.Server && o.Index == rt.Index {
					c.Winner = j
					break
				}
			}
		}
		kept = append(kept, c)
	}
	return kept
}

// classify applies the rules in order; the first that holds for every row
// of the collision decides. One server listing one wire name twice is a
// duplicate; two rows of one server with different wire names fall through
// to the rules that explain them (cut ids, tool names that sanitize alike).
// A shared wire name is the cause only where the policy registers bare wire
// names: where the label is part of the name, two servers' rows meet only
// because their labels did (sanitized alike, re-used a prefix, were cut
// off), and the later rules say which.
func classify(policy string, rows []Outcome) CollisionClass {
	switch {
	case sameFor(rows, func(o Outcome) string { return o.Server + "\x00" + o.Wire }):
		return CollisionDuplicate
	case sameFor(rows, func(o Outcome) string { return o.Wire }) && bare(rows):
		return CollisionSameWire
	case !sameFor(rows, func(o Outcome) string { return orElse(o.Untruncated, o.Name) }):
		return CollisionTruncation
	case policy == "gemini-cli" && !sameFor(rows, func(o Outcome) string {
		return strconv.FormatBool(geminiPrefixed(o.Server + "_" + o.Wire))
	}):
		return CollisionPrefixReuse
	case sameFor(rows, func(o Outcome) string { return o.Server + "__" + o.Wire }):
		return CollisionSeparator
	case sameFor(rows, func(o Outcome) string {
		return replaceUnits(strings.ToLower(lionagiName(o.Server, o.Wire)), openAIUnits)
	}):
		return CollisionLabelsAlike
	}
	return CollisionOther
}

// bare reports whether every row's name is its wire name.
func bare(rows []Outcome) bool {
	for _, o := range rows {
		if o.Name != o.Wire {
			return false
		}
	}
	return true
}

// sameFor reports whether key gives every row the same value.
func sameFor(rows []Outcome, key func(Outcome) string) bool {
	first := key(rows[0])
	for _, o := range rows[1:] {
		if key(o) != first {
			return false
		}
	}
	return true
}

// orElse returns s, or fallback when s is empty.
func orElse(s, fallback string) string {
	if s != "" {
		return s
	}
	return fallback
}
