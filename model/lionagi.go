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
	for ci, cat := range b.cats {
		sr := &b.reg.Servers[ci]
		separatorNote(sr)
		local := make(map[string]int) // registered name -> first row on this server
		var (
			pending []rowRef
			lost    []string // wire names that register nothing
		)
		for i := range cat.Tools {
			t := &cat.Tools[i]
			ref := rowRef{ci, i}
			if b.unusable(ref) {
				if b.outcome(ref).Kind != Filtered {
					sr.Notes = append(sr.Notes, fmt.Sprintf("row %d dropped: %s", i, b.outcome(ref).Reason))
				}
				continue
			}
			name := lionagiName(cat.Server, t.Name)
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
			if holder, ok := b.holder(name); ok {
				b.drop(ref, fmt.Sprintf("name %s taken by server %s (tool %s)",
					name, b.label(holder), b.outcome(holder).Wire), b.label(holder))
				lost = append(lost, t.Name)
				continue
			}
			local[name] = i
			pending = append(pending, ref)
		}

		// One server's rows of one wire name share a qualified name, so
		// they all register or none does: the server registers every name
		// it advertised unless a row was lost.
		if len(lost) == 0 {
			for _, ref := range pending {
				b.register(b.outcome(ref).Name, ref, firstWins)
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
