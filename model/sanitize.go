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
// \x1b, \x7f), C1 controls (\u0085), line and paragraph separators
// (\u2028), each byte of invalid UTF-8 (\xff), and every hidden character
// (see hidden.go): bidi overrides, isolates and marks (\u202e, \u2066,
// \u061c), zero-width and other format characters (\u200b, \ufeff, \u00ad),
// variation selectors (\ufe0f, \U000e0100), tag characters (\U000e0041),
// fillers and blanks (\u3164, \u2800) and private-use characters (\ue000).
// Printable text, backslashes included, is unchanged; when nothing needs
// escaping s itself is returned, without allocating.
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
			writeRuneEscape(&sb, r)
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

// writeRuneEscape writes r as \uXXXX, or \UXXXXXXXX beyond U+FFFF.
func writeRuneEscape(sb *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	digits := 4
	if r > 0xffff {
		digits = 8
		sb.WriteString(`\U`)
	} else {
		sb.WriteString(`\u`)
	}
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		sb.WriteByte(hex[r>>shift&0xf])
	}
}

func writeHexByte(sb *strings.Builder, c byte) {
	const hex = "0123456789abcdef"
	sb.WriteString(`\x`)
	sb.WriteByte(hex[c>>4])
	sb.WriteByte(hex[c&0xf])
}
