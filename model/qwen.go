package model

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Qwen Code counts and replaces UTF-16 code units, as JavaScript strings do,
// so this file does too: an é is one unit and becomes one '_', an emoji is
// two and becomes "__".

const (
	qwenMaxLen  = 63 // accepted by Gemini and by the stricter providers
	qwenHashLen = 7  // a 32-bit hash in base 36 never needs more
)

// applyQwen is Qwen Code's provider-safe normalization: the name starts as
// mcp__{server}__{tool} and is kept byte for byte when already safe, else
// sanitized, truncated and given a hash of the original. The raw string is
// kept as the row's Alias, for old permission entries. On a remaining
// collision the registry overwrites silently: the last route wins.
func applyQwen(b *builder) {
	b.rows(func(ref rowRef, t *Tool) {
		if b.unusable(ref) {
			return
		}
		raw := "mcp__" + b.label(ref) + "__" + t.Name
		name := QwenName(raw)
		o := b.outcome(ref)
		o.Alias = raw
		b.overwrite(name, ref)
		if name != raw {
			o.Reason = "normalized: " + qwenWhy(raw)
		}
	})
	for i := range b.reg.Servers {
		separatorNote(&b.reg.Servers[i])
	}
}

// QwenName is Qwen Code's normalization of one full name. A name of at most
// 63 UTF-16 code units matching ^[A-Za-z][A-Za-z0-9_-]*$ is returned
// unchanged. Otherwise every code unit outside [A-Za-z0-9_-] becomes '_', a
// name not starting with a letter gets the prefix "tool_", and "_" plus the
// hash of the original name is appended, the sanitized part cut so that the
// whole is at most 63 units. It is stable, and idempotent: its results are
// all returned unchanged.
func QwenName(raw string) string {
	if qwenSafeASCII(raw) {
		return raw
	}
	units := utf16.Encode([]rune(raw))
	if qwenSafe(units) {
		return raw
	}
	var sb strings.Builder
	if len(units) == 0 || !isASCIILetter(units[0]) {
		sb.WriteString("tool_")
	}
	for _, u := range units {
		if u < 0x80 && isOpenAIChar(rune(u)) {
			sb.WriteByte(byte(u))
		} else {
			sb.WriteByte('_')
		}
	}
	clean := sb.String() // ASCII only, so bytes are code units
	if keep := qwenMaxLen - 1 - qwenHashLen; len(clean) > keep {
		clean = clean[:keep]
	}
	return clean + "_" + base36Pad(fnv1a(units), qwenHashLen)
}

// qwenSafeASCII is qwenSafe for a string, without converting it: an ASCII
// string's bytes are its code units, and a non-ASCII one is never safe.
func qwenSafeASCII(s string) bool {
	if len(s) == 0 || len(s) > qwenMaxLen || !isASCIILetter(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || !isOpenAIChar(rune(s[i])) {
			return false
		}
	}
	return true
}

func qwenSafe(units []uint16) bool {
	if len(units) == 0 || len(units) > qwenMaxLen || !isASCIILetter(units[0]) {
		return false
	}
	for _, u := range units {
		if u >= 0x80 || !isOpenAIChar(rune(u)) {
			return false
		}
	}
	return true
}

// qwenWhy says what made a name need normalizing, for the row's Reason.
func qwenWhy(raw string) string {
	units := utf16.Encode([]rune(raw))
	var why []string
	for _, r := range raw {
		if r >= 0x80 || !isOpenAIChar(r) {
			why = append(why, fmt.Sprintf("%q is outside [A-Za-z0-9_-]", r))
			break
		}
	}
	if len(units) > qwenMaxLen {
		why = append(why, fmt.Sprintf("%d UTF-16 units is over %d", len(units), qwenMaxLen))
	}
	if len(units) == 0 || !isASCIILetter(units[0]) {
		why = append(why, "does not start with a letter")
	}
	return strings.Join(why, ", ") + "; hash of the original appended"
}

// fnv1a is 32-bit FNV-1a over UTF-16 code units: each unit is folded in
// whole, not byte by byte.
func fnv1a(units []uint16) uint32 {
	h := uint32(2166136261)
	for _, u := range units {
		h ^= uint32(u)
		h *= 16777619
	}
	return h
}

// base36Pad writes h in lowercase base 36, left-padded with '0' to width.
func base36Pad(h uint32, width int) string {
	s := strconv.FormatUint(uint64(h), 36)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

func isASCIILetter[T rune | uint16 | byte](c T) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
