package schemaform

import (
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/model"
)

// Format is the JSON value v as the JSON mode shows it: indented two
// spaces a level, strings escaped as quote escapes them (so the text is
// safe on a terminal and means the same JSON). v not JSON is returned as
// it is.
func Format(v json.RawMessage, err error) string {
	if err != nil {
		return string(v)
	}
	out, ierr := jsonx.Indent(safe(v))
	if ierr != nil {
		return string(v)
	}
	return string(out)
}

// safe rewrites the strings of the JSON value v with quote.
func safe(v []byte) []byte {
	var b strings.Builder
	for i := 0; i < len(v); {
		if v[i] != '"' {
			b.WriteByte(v[i])
			i++
			continue
		}
		end := jsonx.ValueEnd(v, i)
		var s string
		if json.Unmarshal(v[i:end], &s) != nil {
			b.Write(v[i:end])
		} else {
			b.Write(quote(s))
		}
		i = end
	}
	return []byte(b.String())
}

// quote is s as a JSON string, with every character that a terminal must
// not be sent (controls, bidi and invisible characters, as model.Sanitize
// sees them) escaped as \u sequences.
func quote(s string) []byte {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && model.Suspicious(string(r)):
			units := []rune{r}
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				units = []rune{hi, lo}
			}
			for _, u := range units {
				b.WriteString(`\u`)
				for shift := 12; shift >= 0; shift -= 4 {
					b.WriteByte(hex[u>>shift&0xf])
				}
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return []byte(b.String())
}
