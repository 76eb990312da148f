package model

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
)

const (
	codexMaxLen = 64
	// codexKeep is how much of a long sanitized name Codex keeps before the
	// 40 hex digits of the SHA-1, so that the whole is exactly 64.
	codexKeep = codexMaxLen - 2*sha1.Size
)

// applyCodex is Codex's naming. Codex refuses to start a server whose label
// is not ^[a-zA-Z0-9_-]+$, so such a server fails as a whole here and its
// rows are dropped before any is named. Every other row is named by
// CodexName. A row whose raw name mcp__{server}__{tool} was already seen, or
// whose final name is already registered, is skipped with a warning: the
// first route keeps the name.
func applyCodex(b *builder) {
	seen := make(map[string]rowRef, b.total) // raw name -> first row that had it
	for ci, cat := range b.cats {
		sr := &b.reg.Servers[ci]
		if r, bad := firstOutside(cat.Server, isOpenAIChar); bad || cat.Server == "" {
			why := "is empty"
			if bad {
				why = fmt.Sprintf("has %q", r)
			}
			sr.Failed = true
			sr.Err = fmt.Sprintf("server refused by codex: label %q %s; codex starts only servers whose label matches ^[a-zA-Z0-9_-]+$",
				cat.Server, why)
			for i := range cat.Tools {
				b.drop(rowRef{ci, i}, sr.Err, "")
			}
			continue
		}
		separatorNote(sr)
		for i := range cat.Tools {
			ref := rowRef{ci, i}
			if b.unusable(ref) {
				continue
			}
			raw := lionagiName(cat.Server, cat.Tools[i].Name)
			name, full := codexName(raw)
			o := b.outcome(ref)
			o.Name, o.Untruncated = name, full // a row skipped for its raw name has them too
			if first, ok := seen[raw]; ok {
				b.drop(ref, codexRawSeen(b, raw, first), b.label(first))
				continue
			}
			seen[raw] = ref
			if holder, held := b.register(name, ref, firstWins); held {
				b.drop(ref, fmt.Sprintf("skipped with a warning: name %s already used by server %s (tool %s)",
					name, b.label(holder), b.outcome(holder).Wire), b.label(holder))
				continue
			}
			o.Reason = codexWhy(raw, full)
		}
	}
}

// codexRawSeen is the warning for a row whose raw name an earlier row,
// first, already had.
func codexRawSeen(b *builder, raw string, first rowRef) string {
	return fmt.Sprintf("skipped with a warning: raw name %s already seen from server %s (tool %s)",
		raw, b.label(first), b.outcome(first).Wire)
}

// CodexName is Codex's name for a tool: the raw name "mcp__" + server +
// "__" + tool with every character outside [A-Za-z0-9_-] replaced by '_';
// when that is longer than 64, its first 24 characters followed by the 40
// hex digits of the SHA-1 of the raw name, 64 in all.
func CodexName(server, tool string) string {
	name, _ := codexName(lionagiName(server, tool))
	return name
}

// codexName names the raw string and also returns the sanitized name before
// it was shortened, or "" when it was not.
func codexName(raw string) (name, untruncated string) {
	if len(raw) <= codexMaxLen && openAIUnits.holdsAll(raw) {
		return raw, ""
	}
	var sb strings.Builder
	for _, r := range raw { // Rust chars: an emoji is one '_'
		if isOpenAIChar(r) {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	clean := sb.String() // ASCII
	if len(clean) <= codexMaxLen {
		return clean, ""
	}
	sum := sha1.Sum([]byte(raw))
	return clean[:codexKeep] + hex.EncodeToString(sum[:]), clean
}

// codexWhy says what Codex changed in a live row's raw name, or "".
func codexWhy(raw, full string) string {
	var why []string
	if r, bad := firstOutside(raw, isOpenAIChar); bad {
		why = append(why, fmt.Sprintf("sanitized: %q is outside [A-Za-z0-9_-]", r))
	}
	if full != "" {
		why = append(why, fmt.Sprintf("shortened: %d characters is over %d; first %d kept and the SHA-1 of the raw name appended",
			len(full), codexMaxLen, codexKeep))
	}
	return strings.Join(why, "; ")
}
