package model

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The client presets (claude-code, codex, gemini-cli, vscode, openai-agents)
// reproduce how real MCP clients name the tools of several servers, so a
// user can see their config the way the client they run will show it to the
// model. Each lives in its own file. The JavaScript clients (claude-code,
// gemini-cli, vscode) count and replace UTF-16 code units, as JavaScript
// strings do; codex is Rust and replaces whole characters.

// A unitSet is the ASCII characters a client keeps in a name, as a table:
// replaceUnits runs per row on every policy switch, and a call through a
// predicate per byte was most of its cost.
type unitSet [utf8.RuneSelf]bool

func unitsOf(keep func(rune) bool) *unitSet {
	var s unitSet
	for c := range s {
		s[c] = keep(rune(c))
	}
	return &s
}

var (
	openAIUnits = unitsOf(isOpenAIChar)
	geminiUnits = unitsOf(isGeminiChar)
)

// holdsAll reports whether every byte of s is a character u holds.
func (u *unitSet) holdsAll(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || !u[c] {
			return false
		}
	}
	return true
}

// replaceUnits returns s with every UTF-16 code unit keep does not hold
// written as '_'. keep holds only ASCII, so the result is ASCII and its
// length in bytes is its length in code units: an é becomes "_" and an
// emoji, two code units, "__".
func replaceUnits(s string, keep *unitSet) string {
	// Most names are ASCII and need nothing replaced: return them as they
	// are, without converting to code units (a policy calls this per row).
	ascii, clean := true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		clean = clean && keep[c]
	}
	if ascii {
		if clean {
			return s
		}
		b := []byte(s) // ASCII: one byte is one code unit
		for i, c := range b {
			if !keep[c] {
				b[i] = '_'
			}
		}
		return string(b)
	}
	units := utf16.Encode([]rune(s))
	var sb strings.Builder
	sb.Grow(len(units))
	for _, u := range units {
		if u < utf8.RuneSelf && keep[u] {
			sb.WriteByte(byte(u))
		} else {
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// separatorNote notes a label holding "__" under a policy that joins server
// and tool with "__": mcp__a__b__c could be server a's b__c or server a__b's
// c, so the name cannot be split back and two routes can want one name.
func separatorNote(sr *ServerResult) {
	if strings.Contains(sr.Server, "__") {
		sr.Notes = append(sr.Notes, fmt.Sprintf("label %q contains \"__\", the separator of mcp__{server}__{tool}: "+
			"a registered name cannot be split back into server and tool unambiguously", sr.Server))
	}
}

// firstUnitOutside returns the first character of s that replaceUnits with
// keep would rewrite, for a row's reason.
func firstUnitOutside(s string, keep *unitSet) (rune, bool) {
	return firstOutside(s, func(r rune) bool { return r < utf8.RuneSelf && keep[r] })
}
