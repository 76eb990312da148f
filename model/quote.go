package model

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// QuoteJSON returns s as a JSON string that is safe to show on a terminal
// and means the same JSON: besides what JSON requires, every character
// Sanitize would replace (controls, bidi, invisible ones) is escaped as a
// \u sequence, beyond U+FFFF as a surrogate pair, and invalid UTF-8 as
// \ufffd. The argument editor's JSON (schemaform) writes strings with it.
func QuoteJSON(s string) string {
	const hex = "0123456789abcdef"
	var w strings.Builder
	w.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			w.WriteByte('\\')
			w.WriteByte(byte(r))
		case r == '\n':
			w.WriteString(`\n`)
		case r == '\r':
			w.WriteString(`\r`)
		case r == '\t':
			w.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			w.WriteString(`\ufffd`)
		case unsafeRune(r):
			units := []rune{r}
			if r > 0xffff { // JSON has no longer escape: a surrogate pair
				hi, lo := utf16.EncodeRune(r)
				units = []rune{hi, lo}
			}
			for _, u := range units {
				w.WriteString(`\u`)
				for shift := 12; shift >= 0; shift -= 4 {
					w.WriteByte(hex[u>>shift&0xf])
				}
			}
		default:
			w.WriteString(s[i : i+size])
		}
		i += size
	}
	w.WriteByte('"')
	return w.String()
}
