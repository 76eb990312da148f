package model

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Finding is something worth a look in what servers advertised, beyond
// what any naming policy does with it: text that hides or acts, names that
// read alike across servers, descriptions that point at other servers, wire
// names the MCP spec advises against.
type Finding struct {
	// Severity is Warn, or Fail for the serious kinds (text hidden in or
	// acting on a name; text hidden in a description).
	Severity Severity
	// Kind is "lookalike", "cross-reference", "invisible-text",
	// "control-text", "wire-name" or "schema" (see SchemaProblem); the
	// loader adds "protocol" for a server that breaks JSON-RPC.
	Kind   string
	Server string
	// Tool is the wire name of the row, or "" for a server-level finding
	// (and for a row without a usable name, which Evidence numbers).
	Tool string
	// Evidence says exactly what was seen. It carries server text as
	// advertised, names quoted: render it through Sanitize.
	Evidence string
}

// Findings returns what the catalogues show under any policy, ordered by
// server (in the order given), then row (server-level first), then kind
// and evidence. It runs in time about linear in the size of the catalogues:
// names are compared through indexes, never pairwise across all servers.
func Findings(cats []Catalogue) []Finding {
	var fs []finding
	for ci, cat := range cats {
		fs = append(fs, rowFindings(ci, cat)...)
	}
	fs = append(fs, lookalikes(cats)...)
	fs = append(fs, crossReferences(cats)...)
	slices.SortFunc(fs, func(a, b finding) int {
		if a.cat != b.cat {
			return a.cat - b.cat
		}
		if a.row != b.row {
			return a.row - b.row
		}
		if ka, kb := kindRank(a.Kind), kindRank(b.Kind); ka != kb {
			return ka - kb
		}
		return strings.Compare(a.Evidence, b.Evidence)
	})
	out := make([]Finding, len(fs))
	for i, f := range fs {
		out[i] = f.Finding
	}
	return out
}

// A finding is a Finding with the position it sorts by: catalogue, and row
// (-1 for server-level).
type finding struct {
	Finding
	cat, row int
}

var kindOrder = []string{"invisible-text", "control-text", "lookalike", "cross-reference", "wire-name", KindTaskRequired}

func kindRank(kind string) int { return slices.Index(kindOrder, kind) }

// rowFindings checks each row of one catalogue on its own: hidden and
// acting text in its name, title and description, the spec's advice for
// its wire name, and names it lists more than once.
func rowFindings(ci int, cat Catalogue) []finding {
	var fs []finding
	add := func(row int, sev Severity, kind, tool, evidence string) {
		fs = append(fs, finding{Finding{sev, kind, cat.Server, tool, evidence}, ci, row})
	}
	rows := make(map[string][]int)
	var names []string
	for i, t := range cat.Tools {
		// subject names the row in evidence; formatted only when a finding
		// needs it, which is rare.
		subject := func() string {
			if t.usable() {
				return fmt.Sprintf("%q", t.Name)
			}
			return fmt.Sprintf("row %d", i)
		}
		tool := ""
		if t.usable() {
			tool = t.Name
			if rows[t.Name] == nil {
				names = append(names, t.Name)
			}
			rows[t.Name] = append(rows[t.Name], i)
			for _, h := range scanText(t.Name, false) {
				add(i, Fail, h.kind, tool, fmt.Sprintf("name %q on %s %s", t.Name, cat.Server, h))
			}
			if c := CheckWireName(t.Name); c.Severity != Pass {
				add(i, Warn, "wire-name", tool, c.Message)
			}
		} else if !t.named() { // a named row the config filters or the client rejects has a name
			add(i, Warn, "wire-name", "", fmt.Sprintf("row %d on %s has no usable name (%s)",
				i, cat.Server, orElse(t.NameProblem, "empty name")))
		}
		fs = append(fs, schemaFindings(ci, i, cat.Server, tool, subject, t.InputSchema)...)
		if evidence, ok := taskFinding(cat.Server, subject, t.Raw); ok { // tasks.go
			add(i, Warn, KindTaskRequired, tool, evidence)
		}
		for _, field := range []struct{ what, text string }{{"title", t.Title}, {"description", t.Description}} {
			for _, h := range scanText(field.text, true) {
				add(i, h.proseSeverity(), h.kind, tool, fmt.Sprintf("%s of %s on %s %s", field.what, subject(), cat.Server, h))
			}
		}
	}
	for _, name := range names {
		if r := rows[name]; len(r) > 1 {
			list := make([]string, len(r))
			for j, i := range r {
				list[j] = fmt.Sprint(i)
			}
			add(r[1], Warn, "wire-name", name, fmt.Sprintf("%q is listed %d times by %s (rows %s); "+
				"the spec says names SHOULD be unique within a server", name, len(r), cat.Server, strings.Join(list, ", ")))
		}
	}
	return fs
}

// A textHit is one kind of unsafe character found in a text: how many, the
// first one with where it is, and for hidden characters what their tag
// characters and variation selectors spell.
type textHit struct {
	kind    string
	n       int
	first   string   // the character, described
	at      int      // its position in characters, from 1
	excerpt string   // text around it
	spelled []string // "tag characters spell \"...\"", quoted
	// mild is set when every hidden character is a presentation selector
	// after a symbol (⚠️), which spells nothing.
	mild bool
}

func (h textHit) String() string {
	noun := "control character"
	if h.kind == "invisible-text" {
		noun = "invisible character"
	}
	if h.n != 1 {
		noun += "s"
	}
	s := fmt.Sprintf("holds %d %s, first %s at character %d", h.n, noun, h.first, h.at)
	if h.excerpt != "" {
		s += fmt.Sprintf(": %q", h.excerpt)
	}
	for _, sp := range h.spelled {
		s += "; " + sp
	}
	return s
}

// proseSeverity is how serious a hit in a title or a description is:
// hidden characters are Fail, as the model reads what the reviewer cannot
// see, unless all they do is ask for an emoji's presentation; control
// characters are Warn.
func (h textHit) proseSeverity() Severity {
	if h.kind == "invisible-text" && !h.mild {
		return Fail
	}
	return Warn
}

// scanText finds the characters Sanitize escapes, split into those that
// hide text (bidi controls, and the format, default-ignorable, private-use
// and blank characters of hidden.go) and those that act on a terminal
// (controls, separators, invalid UTF-8), and decodes what tag characters
// and variation selectors spell. In prose (a title, a description) tab and
// line breaks are ordinary and not reported; an excerpt around the first
// hit is kept.
func scanText(s string, prose bool) []textHit {
	if !Suspicious(s) {
		return nil
	}
	var hits [2]textHit // invisible, control
	hits[0].kind, hits[1].kind = "invisible-text", "control-text"
	var tags, selectors payload
	strong := 0 // hidden characters other than presentation selectors
	pos := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		pos++
		k, what := classifyRune(r, size)
		if k >= 0 && !(prose && (r == '\n' || r == '\r' || r == '\t')) {
			h := &hits[k]
			if h.n == 0 {
				h.first, h.at = describeRune(s, i, r, what), pos
				if prose {
					h.excerpt = excerpt(s, i, size)
				}
			}
			h.n++
			if k == 0 {
				switch c, ok := vsByte(r); {
				case r >= tagFirst && r <= tagLast:
					tags.add(byte(r - 0xe0000))
					strong++
				case ok && !presentationSelector(s, i):
					selectors.add(c)
					strong++
				case !ok:
					strong++
				}
			}
		}
		i += size
	}
	hits[0].mild = strong == 0
	for _, p := range []struct {
		what string
		p    payload
	}{{"tag characters", tags}, {"variation selectors", selectors}} {
		if text, ok := p.p.text(); ok {
			hits[0].spelled = append(hits[0].spelled, p.what+" spell "+text)
		}
	}
	var out []textHit
	for _, h := range hits {
		if h.n > 0 {
			out = append(out, h)
		}
	}
	return out
}

// classifyRune returns 0 for a character that hides text, 1 for one that
// acts, -1 otherwise, and what kind of character it is.
func classifyRune(r rune, size int) (int, string) {
	switch {
	case r >= 0x20 && r < 0x7f:
		return -1, ""
	case r == utf8.RuneError && size == 1:
		return 1, "invalid UTF-8"
	case !unsafeRune(r):
		return -1, ""
	case r == 0x1b:
		return 1, "escape"
	case r < 0x20, r == 0x7f:
		return 1, "control"
	case r >= 0x80 && r <= 0x9f:
		return 1, "C1 control"
	case r == 0x2028, r == 0x2029:
		return 1, "line or paragraph separator"
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return 0, "bidi control"
	case r >= 0xe0000 && r <= 0xe007f:
		return 0, "tag character"
	case unicode.Is(unicode.Variation_Selector, r):
		return 0, "variation selector"
	case unicode.Is(unicode.Co, r):
		return 0, "private-use character"
	case r == brailleBlank:
		return 0, "blank character"
	case unicode.Is(unicode.Cf, r):
		return 0, "invisible format character"
	}
	return 0, "default-ignorable character"
}

// describeRune names a character classifyRune reported.
func describeRune(s string, i int, r rune, kind string) string {
	if kind == "invalid UTF-8" {
		return fmt.Sprintf("the invalid UTF-8 byte %#02x", s[i])
	}
	return fmt.Sprintf("U+%04X (%s)", r, kind)
}

// excerpt returns up to 16 characters either side of the character at
// byte i, marking cut ends with "...".
func excerpt(s string, i, size int) string {
	const span = 16
	start := i
	for n := 0; n < span && start > 0; n++ {
		_, w := utf8.DecodeLastRuneInString(s[:start])
		start -= w
	}
	end := i + size
	for n := 0; n < span && end < len(s); n++ {
		_, w := utf8.DecodeRuneInString(s[end:])
		end += w
	}
	out := s[start:end]
	if start > 0 {
		out = "..." + out
	}
	if end < len(s) {
		out += "..."
	}
	return out
}
