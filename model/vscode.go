package model

import (
	"fmt"
	"strconv"
	"strings"
)

const (
	vscodeMaxLen    = 64 // an id is cut to this
	vscodePrefixMax = 18 // "mcp_" + base + suffix
	// vscodeBaseMax is the longest prefix base: room for "mcp_" and "_".
	vscodeBaseMax = vscodePrefixMax - len("mcp_") - 1
)

// applyVSCode is VS Code's naming. Each server gets a prefix, "mcp_" + its
// base + "_", where the base is the label lower-cased, each run of
// characters outside [a-z0-9_.-] replaced by one '_', cut to 13. A later
// server whose base is already taken gets "2_", then "3_", ... in place of
// the last "_", the base cut further so the prefix stays within 18. A tool's
// id is the prefix plus its wire name with every code unit outside
// [a-zA-Z0-9_-] replaced by '_', then every '.' replaced by '_', cut to 64.
// Nothing is hashed, so two cut ids can be equal. VS Code takes the base from
// the server's self-reported title or name once it is known; mcplens uses
// the label, as a client does before the server first answers.
//
// On an id already registered VS Code's tool registry throws
// `Tool "<id>" is already registered.`. The most plausible result, and the
// one mcplens shows, is that the first route keeps the id and the later row
// is dropped, servers in declaration order and rows in advertised order.
// VS Code itself registers one server's tools in name order, and the throw
// also stops that server's pass, so tools after it may be missing in VS Code
// too; the server gets a note saying so.
func applyVSCode(b *builder) {
	taken := make(map[string]int) // prefix base -> servers holding it
	for ci, cat := range b.cats {
		sr := &b.reg.Servers[ci]
		base := vscodeBase(cat.Server)
		taken[base]++
		prefix := vscodePrefix(base, taken[base])
		if taken[base] > 1 {
			sr.Notes = append(sr.Notes, fmt.Sprintf("prefix %s: %d server(s) before it have the prefix base %q",
				prefix, taken[base]-1, base))
		}
		refused := false
		for i := range cat.Tools {
			t := &cat.Tools[i]
			ref := rowRef{ci, i}
			if b.unusable(ref) {
				continue
			}
			id, full := vscodeID(prefix, t.Name)
			b.outcome(ref).Untruncated = full
			if holder, held := b.register(id, ref, firstWins); held {
				b.drop(ref, fmt.Sprintf("id %s already registered by server %s (tool %s); "+
					"VS Code refuses the second: Tool %q is already registered.",
					id, b.label(holder), b.outcome(holder).Wire, id), b.label(holder))
				refused = true
				continue
			}
			b.outcome(ref).Reason = vscodeWhy(t.Name, full)
		}
		if refused {
			sr.Notes = append(sr.Notes, "VS Code throws on a repeated id while registering this server's tools "+
				"(in name order); tools after it in that order may be missing in VS Code as well")
		}
	}
}

// vscodeBase is the prefix base of a label: lower-cased as JavaScript does,
// each run of characters outside [a-z0-9_.-] replaced by one '_', cut to 13.
func vscodeBase(label string) string {
	// JavaScript lower-cases U+0130 to "i" + U+0307; Go's ToLower maps it to
	// "i" alone. The rest of the difference never reaches ASCII.
	lower := strings.ToLower(strings.ReplaceAll(label, "\u0130", "i\u0307"))
	var sb strings.Builder
	run := false
	for _, r := range lower {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-') {
			sb.WriteRune(r)
			run = false
			continue
		}
		if !run {
			sb.WriteByte('_')
		}
		run = true
	}
	base := sb.String() // ASCII
	return base[:min(len(base), vscodeBaseMax)]
}

// vscodePrefix is the prefix of the nth server (from 1) with the base.
func vscodePrefix(base string, nth int) string {
	suffix := "_"
	if nth > 1 {
		suffix = strconv.Itoa(nth) + "_"
	}
	keep := max(0, vscodePrefixMax-len("mcp_")-len(suffix))
	return "mcp_" + base[:min(len(base), keep)] + suffix
}

// vscodeID is a tool's id under the prefix, and the id before it was cut, or
// "" when it was not.
func vscodeID(prefix, tool string) (id, uncut string) {
	id = strings.ReplaceAll(prefix+replaceUnits(tool, openAIUnits), ".", "_")
	if len(id) > vscodeMaxLen {
		return id[:vscodeMaxLen], id
	}
	return id, ""
}

// vscodeWhy says what VS Code changed in the wire name, or "".
func vscodeWhy(wire, uncut string) string {
	var why []string
	if r, bad := firstUnitOutside(wire, openAIUnits); bad {
		why = append(why, fmt.Sprintf("sanitized: %q is outside [a-z0-9_-]", r))
	}
	if uncut != "" {
		why = append(why, fmt.Sprintf("cut: %d characters is over %d", len(uncut), vscodeMaxLen))
	}
	return strings.Join(why, "; ")
}
