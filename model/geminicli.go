package model

import (
	"fmt"
	"strings"
)

const (
	geminiMaxLen = 63
	// geminiKeep is how many characters gemini-cli keeps from each end of a
	// long name, around "...": 30 + 3 + 30 = 63.
	geminiKeep = 30
	geminiMark = "..."
)

// applyGeminiCLI is gemini-cli's naming (v0.34 and later): each tool is
// named GeminiName(server + "_" + tool). A name registered again overwrites
// the earlier one with a warning, so the last route wins and the earlier is
// displaced.
func applyGeminiCLI(b *builder) {
	for i := range b.reg.Servers {
		sr := &b.reg.Servers[i]
		if strings.Contains(sr.Server, "_") {
			sr.Notes = append(sr.Notes, fmt.Sprintf("label %q contains '_': gemini-cli splits mcp_{server}_{tool} names "+
				"at '_' when it reads them back, so it can take these tools for another server's", sr.Server))
		}
	}
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		joined := b.label(ref) + "_" + t.Name
		name, full := geminiName(joined)
		o := b.outcome(ref)
		o.Untruncated = full
		b.overwrite(name, ref)
		o.Reason = geminiWhy(joined, full)
	})
}

// GeminiName is gemini-cli's valid-name function, applied to server + "_" +
// tool: the name is prefixed with "mcp_" unless it already starts with it
// (checked before sanitizing, so server mcp_x and server x name tool y
// alike), every UTF-16 code unit outside [a-zA-Z0-9_.:-] is replaced by
// '_', and a name longer than 63 keeps its first 30 and last 30 characters
// around "...".
//
// gemini-cli also prefixes '_' to a name whose first character is neither a
// letter nor '_'; after the "mcp_" prefix that can never apply, so it is not
// written here.
func GeminiName(name string) string {
	n, _ := geminiName(name)
	return n
}

// geminiName also returns the name before it was shortened, or "".
func geminiName(v string) (name, untruncated string) {
	if !geminiPrefixed(v) {
		v = "mcp_" + v
	}
	clean := replaceUnits(v, geminiUnits)
	if len(clean) <= geminiMaxLen {
		return clean, ""
	}
	return clean[:geminiKeep] + geminiMark + clean[len(clean)-geminiKeep:], clean
}

// geminiPrefixed reports whether gemini-cli leaves the joined name without
// its own "mcp_" prefix, because the name already starts with one.
func geminiPrefixed(joined string) bool { return strings.HasPrefix(joined, "mcp_") }

// geminiWhy says what gemini-cli changed beyond the prefix, or "".
func geminiWhy(joined, full string) string {
	var why []string
	if geminiPrefixed(joined) {
		why = append(why, fmt.Sprintf("%s already starts with mcp_: no prefix added", joined))
	}
	if r, bad := firstUnitOutside(joined, geminiUnits); bad {
		why = append(why, fmt.Sprintf("sanitized: %q is outside [a-zA-Z0-9_.:-]", r))
	}
	if full != "" {
		why = append(why, fmt.Sprintf("shortened: %d characters is over %d; first and last %d kept around %q",
			len(full), geminiMaxLen, geminiKeep, geminiMark))
	}
	return strings.Join(why, "; ")
}
