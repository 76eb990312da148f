package model

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cross-reference limits: a label of one character, or a tool name of
// fewer than four, matches ordinary words far more often than it names
// anything.
const (
	crossRefMinLabel = 2
	crossRefMinTool  = 4
	// crossRefSpan is the most dot- or dash-joined words one mention can
	// span (foo.bar.baz is three).
	crossRefSpan = 8
)

// crossReferences finds tool descriptions on one server that name another
// server: its label, in any case, or one of its tool names, exactly, each
// as a whole word. Each such description is one finding listing what it
// mentions and whose it is. A description steering the model towards another
// server's tools is the shape of cross-server tool shadowing. A tool name
// the describing server advertises itself, in any case or with '-' for '_',
// is taken to mean its own tool ("Search the index" on a server with
// search); the lookalike check reports such pairs.
//
// Words are runs of letters, digits and '_'; a mention may join words with
// single '.' or '-' (foo.bar, read-file), so "beta.request" mentions beta,
// request and beta.request, while "my_request" mentions none of them.
// Descriptions are scanned once, and every candidate is a map lookup.
func crossReferences(cats []Catalogue) []finding {
	labels := make(map[string][]int)
	for ci, cat := range cats {
		if utf8.RuneCountInString(cat.Server) >= crossRefMinLabel {
			key := strings.ToLower(cat.Server)
			labels[key] = append(labels[key], ci)
		}
	}
	names, index := distinctNames(cats)
	// own maps a folded name to the catalogues advertising a form of it: a
	// set, as a generic name ("search") may be every server's.
	own := make(map[string]map[int]bool)
	for _, n := range names {
		key := foldName(n.name)
		if own[key] == nil {
			own[key] = make(map[int]bool, len(n.cats))
		}
		for _, ci := range n.cats {
			own[key][ci] = true
		}
	}

	var fs []finding
	for ci, cat := range cats {
		for i, t := range cat.Tools {
			if !t.usable() || t.Description == "" {
				continue
			}
			var said []string // each mention, in order of first appearance
			seen := make(map[string]bool)
			mention := func(m, what string, of []int) {
				key := what + "\x00" + m
				if seen[key] {
					return
				}
				seen[key] = true
				var others []string
				for _, cj := range of {
					if cats[cj].Server != cat.Server {
						others = append(others, cats[cj].Server)
					}
				}
				if len(others) > 0 {
					said = append(said, fmt.Sprintf("%q (%s %s)", m, what, serverList(others)))
				}
			}
			eachMention(t.Description, func(m string) {
				if of := labels[strings.ToLower(m)]; of != nil {
					mention(m, "label of", of)
				}
				id, ok := index[m]
				if !ok || utf8.RuneCountInString(m) < crossRefMinTool || own[foldName(m)][ci] {
					return
				}
				mention(m, "a tool of", names[id].cats)
			})
			if len(said) > 0 {
				fs = append(fs, finding{Finding{
					Severity: Warn,
					Kind:     "cross-reference",
					Server:   cat.Server,
					Tool:     t.Name,
					Evidence: fmt.Sprintf("description of %q on %s mentions other servers: %s",
						t.Name, cat.Server, strings.Join(said, ", ")),
				}, ci, i})
			}
		}
	}
	return fs
}

// eachMention calls f with every whole-word candidate in text: each word,
// and each run of up to crossRefSpan words joined by single '.' or '-'.
func eachMention(text string, f func(string)) {
	type span struct{ start, end int }
	var words []span // the current run of joined words
	flush := func() {
		for a := range words {
			for b := a; b < len(words) && b-a < crossRefSpan; b++ {
				f(text[words[a].start:words[b].end])
			}
		}
		words = words[:0]
	}
	isWord := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if !isWord(r) {
			// A single joiner between two words keeps the run going.
			joined := false
			if (r == '.' || r == '-') && len(words) > 0 && words[len(words)-1].end == i && i+w < len(text) {
				next, _ := utf8.DecodeRuneInString(text[i+w:])
				joined = isWord(next)
			}
			if !joined {
				flush()
			}
			i += w
			continue
		}
		start := i
		for i < len(text) {
			r, w := utf8.DecodeRuneInString(text[i:])
			if !isWord(r) {
				break
			}
			i += w
		}
		words = append(words, span{start, i})
	}
	flush()
}
