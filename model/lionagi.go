package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lionagiMaxLen is the provider limit ADR-0112 D6 validates against.
const lionagiMaxLen = 64

// applyLionagi is lionagi after ADR-0112. Every tool registers as
// mcp__{server}__{tool} (D1), the name is validated at registration and never
// truncated (D6), and each server must register every wire name it
// advertised or fail as a whole (D3).
//
// Servers are committed one at a time: a server's rows claim names only once
// it has passed its postcondition, so a failed server holds no name that a
// later server could have had.
func applyLionagi(b *builder) {
	// One set of maps serves every server in turn, emptied between them.
	// A wire name is registered when its qualified name is in local: the
	// server's label is the same for all its rows.
	var (
		local   = map[string]int{} // registered name -> first row
		pending []rowRef
		lost    []string // wire names that register nothing
	)
	// Two servers' names can meet only when one label is another's plus
	// "__" and more (a's b__c and a__b's c); without such a pair a name is
	// free of other servers, and the registry is not asked.
	nested := labelsNest(b.cats)
	for ci, cat := range b.cats {
		sr := &b.reg.Servers[ci]
		clear(local)
		pending, lost = pending[:0], lost[:0]
		separatorNote(sr)
		names := qualifyAll(cat, "mcp__"+cat.Server+"__")
		for i := range cat.Tools {
			t := &cat.Tools[i]
			ref := rowRef{ci, i}
			if b.unusable(ref) {
				if b.outcome(ref).Kind != Filtered {
					sr.Notes = append(sr.Notes, fmt.Sprintf("row %d dropped: %s", i, b.outcome(ref).Reason))
				}
				continue
			}
			name := names[i]
			b.outcome(ref).Name = name
			if problem := lionagiProblem(cat.Server, t.Name, name); problem != "" {
				b.drop(ref, problem, "")
				lost = append(lost, t.Name)
				continue
			}
			if first, dup := local[name]; dup {
				b.drop(ref, fmt.Sprintf("duplicate: server %s lists %s more than once; row %d holds %s",
					cat.Server, t.Name, first, name), cat.Server)
				sr.Notes = append(sr.Notes, fmt.Sprintf("lists %s more than once (rows %d and %d)", t.Name, first, i))
				continue
			}
			if nested { // else no other server can hold the name
				if holder, ok := b.taken(name); ok {
					b.drop(ref, fmt.Sprintf("name %s taken by server %s (tool %s)",
						name, b.label(holder), b.outcome(holder).Wire), b.label(holder))
					lost = append(lost, t.Name)
					continue
				}
			}
			local[name] = i
			pending = append(pending, ref)
		}

		// One server's rows of one wire name share a qualified name, so
		// they all register or none does: the server registers every name
		// it advertised unless a row was lost.
		if len(lost) == 0 {
			// Each name was free when its row was read, and only this
			// server's rows, all distinct, have been added since.
			for _, ref := range pending {
				b.insert(b.outcome(ref).Name, ref)
			}
			continue
		}
		slices.Sort(lost)
		missing := slices.Compact(lost)
		sr.Failed = true
		sr.Err = fmt.Sprintf("advertised %d tool(s) but %d registered; missing: %s",
			len(local)+len(missing), len(local), quotedList(missing))
		withheld := "withheld: server " + cat.Server + " failed its postcondition (fail-closed)"
		for _, ref := range pending {
			b.drop(ref, withheld, "")
		}
	}
}

// labelsNest reports whether two catalogues share a label, or some label
// is another followed by "__" and more: the only ways
// mcp__{server}__{tool} can come out the same for two servers.
func labelsNest(cats []Catalogue) bool {
	labels := make([]string, len(cats))
	for i, cat := range cats {
		labels[i] = cat.Server
	}
	slices.Sort(labels)
	// The labels that begin with l+"__" sort together, from the first not
	// below it.
	for k, l := range labels {
		if k > 0 && labels[k-1] == l {
			return true
		}
		i, _ := slices.BinarySearch(labels, l+"__")
		if i < len(labels) && strings.HasPrefix(labels[i], l+"__") {
			return true
		}
	}
	return false
}

// lionagiName is ADR-0112's qualified_mcp_name.
func lionagiName(server, tool string) string {
	return "mcp__" + server + "__" + tool
}

// lionagiProblem validates a qualified name against ^[a-zA-Z0-9_-]+$ and
// length 1..64, and returns the registration error, or "" when it passes.
// The error names the server, the tool, the length and the remedy.
func lionagiProblem(server, tool, name string) string {
	if len(name) <= lionagiMaxLen && openAIUnits.holdsAll(name) {
		return "" // the common case, decided without building a message
	}
	n := utf8.RuneCountInString(name)
	bad, badChar := firstOutside(name, isOpenAIChar)
	_, badTool := firstOutside(tool, isOpenAIChar)
	tooLong := n > lionagiMaxLen
	room := lionagiMaxLen - utf8.RuneCountInString(lionagiName("", tool))

	var problems []string
	if badChar {
		problems = append(problems, fmt.Sprintf("has %q, outside [a-zA-Z0-9_-]", bad))
	}
	if tooLong {
		problems = append(problems, fmt.Sprintf("is over the %d allowed", lionagiMaxLen))
	}
	var remedy string
	switch {
	case !badChar && !tooLong:
		return ""
	case badTool:
		remedy = "none under lionagi: no config key fixes a character in the tool's own name"
	case tooLong && room < 1:
		remedy = "none under lionagi: the tool's own name leaves no room for a server label"
	case badChar && tooLong:
		remedy = fmt.Sprintf("load the server under a config key of letters, digits, '_' and '-', "+
			"at most %d characters for this tool", room)
	case badChar:
		remedy = "load the server under a config key of letters, digits, '_' and '-'"
	default:
		remedy = fmt.Sprintf("load the server under a shorter config key (at most %d characters for this tool)", room)
	}
	return fmt.Sprintf("server %q, tool %q: registered name %q (%d characters) %s; remedy: %s",
		server, tool, name, n, strings.Join(problems, " and "), remedy)
}

// quotedList formats the missing list of the ADR's error: a list literal as
// Python would accept it, each name Go-quoted: ["a", "b"]. Quoting keeps the
// list unambiguous, and a hostile name cannot break the line.
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
