package schemaform

import (
	"encoding/json"
	"strings"

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
// not be sent escaped as \u sequences (model.QuoteJSON).
func quote(s string) []byte { return []byte(model.QuoteJSON(s)) }
