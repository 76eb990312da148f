package model

import (
	"strings"
	"unicode/utf8"
)

// Everything a server sends is text it chose: names, descriptions, schemas,
// error messages. Shown raw, an escape sequence can move the cursor, recolour
// the screen or retitle the window, and a bidi override can make one name
// read as another. Sanitize makes such text visible instead of effective.

// Sanitize returns s with every character that could act on a terminal or
// hide in it written as a Go-style escape: C0 controls and DEL (\n, \t,
// \x1b, \x7f), C1 controls (\u0085), bidi overrides, isolates and marks
// (\u202e, \u2066, \u200f, \u061c), zero-width characters (\u200b, \ufeff),
// line and paragraph separators (\u2028), and each byte of invalid UTF-8
// (\xff). Printable text, backslashes included, is unchanged; when nothing
// needs escaping s itself is returned, without allocating.
func Sanitize(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	sb.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHexByte(&sb, s[i])
		case r < 0x80 && unsafeRune(r):
			writeASCIIEscape(&sb, byte(r))
		case unsafeRune(r):
			sb.WriteString(`\u`)
			const hex = "0123456789abcdef"
			for shift := 12; shift >= 0; shift -= 4 {
				sb.WriteByte(hex[r>>shift&0xf])
			}
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

// Suspicious reports whether Sanitize would change s.
func Suspicious(s string) bool { return firstUnsafe(s) >= 0 }

// firstUnsafe returns the byte offset of the first character Sanitize
// escapes, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports whether r is a control, bidi or invisible character
// that Sanitize escapes.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, // arabic letter mark
		r >= 0x200b && r <= 0x200f, // zero-width space, joiners, LRM, RLM
		r >= 0x2028 && r <= 0x202e, // line/paragraph separators, embeddings, overrides
		r >= 0x2060 && r <= 0x206f, // word joiner, invisible operators, isolates, deprecated format
		r == 0xfeff:                // zero-width no-break space
		return true
	}
	return false
}

func writeASCIIEscape(sb *strings.Builder, c byte) {
	switch c {
	case '\a':
		sb.WriteString(`\a`)
	case '\b':
		sb.WriteString(`\b`)
	case '\f':
		sb.WriteString(`\f`)
	case '\n':
		sb.WriteString(`\n`)
	case '\r':
		sb.WriteString(`\r`)
	case '\t':
		sb.WriteString(`\t`)
	case '\v':
		sb.WriteString(`\v`)
	default:
		writeHexByte(sb, c)
	}
}

func writeHexByte(sb *strings.Builder, c byte) {
	const hex = "0123456789abcdef"
	sb.WriteString(`\x`)
	sb.WriteByte(hex[c>>4])
	sb.WriteByte(hex[c&0xf])
}
