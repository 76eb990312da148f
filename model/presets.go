package model

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// The client presets (claude-code, codex, gemini-cli, vscode, openai-agents)
// reproduce how real MCP clients name the tools of several servers, so a
// user can see their config the way the client they run will show it to the
// model. Each lives in its own file. The JavaScript clients (claude-code,
// gemini-cli, vscode) count and replace UTF-16 code units, as JavaScript
// strings do; codex is Rust and replaces whole characters.

// replaceUnits returns s with every UTF-16 code unit for which keep is false
// written as '_'. keep only ever accepts ASCII, so the result is ASCII and
// its length in bytes is its length in code units: an é becomes "_" and an
// emoji, two code units, "__".
func replaceUnits(s string, keep func(rune) bool) string {
	// Most names are ASCII and need nothing replaced: return them as they
	// are, without converting to code units (a policy calls this per row).
	ascii, clean := true, true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < 0x80
		clean = clean && keep(rune(s[i]))
	}
	if ascii {
		if clean {
			return s
		}
		b := []byte(s) // ASCII: one byte is one code unit
		for i, c := range b {
			if !keep(rune(c)) {
				b[i] = '_'
			}
		}
		return string(b)
	}
	units := utf16.Encode([]rune(s))
	var sb strings.Builder
	sb.Grow(len(units))
	for _, u := range units {
		if u < 0x80 && keep(rune(u)) {
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
func firstUnitOutside(s string, keep func(rune) bool) (rune, bool) {
	return firstOutside(s, func(r rune) bool { return r < 0x80 && keep(r) })
}
