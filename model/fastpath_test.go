package model

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// The fast paths of the findings (JSON read byte by byte rather than token
// by token, the lookalike index sorted by buckets) are held here to the
// plain ways of computing the same thing. The scans themselves are held to
// encoding/json in internal/jsonx (FuzzScans, on these samples too); here,
// that a schema jsonx.Plain passes over holds nothing scanText reports.

// tokenHits reports whether scanText finds anything in any string of raw,
// decoded by the tokenizer.
func tokenHits(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && len(scanText(s, true)) > 0 {
			return true
		}
	}
}

var schemaSamples = []string{
	`{"type":"object"}`,
	`{"type" : "object" , "properties":{"type":{"type":"string"}}}`,
	` { "properties" : { } , "type":"string" } `,
	`{"type":5}`,
	`{"type":null}`,
	`{"type":["object","null"]}`,
	`{"type":{"nested":"object"}}`,
	`{"TYPE":"object"}`,
	`{"Type":"string","type":"object"}`,
	`{"type":"object","tYpe":"array"}`,
	`{"typ\u0065":"object"}`,
	`{"ty\"pe":"object"}`,
	`{"a":"}","type":"object"}`,
	`{"a":"\\","type":"object"}`,
	`{"a":[1,{"b":"]"}],"type":true}`,
	`{}`,
	`{"description":"line\nbreak\ttab \/ \"quoted\" \\u200b"}`,
	`{"description":"bell\u0007"}`,
	`{"description":"zero\u200bwidth"}`,
	`{"description":"raw` + "\u202e" + `bidi"}`,
	`{"description":"del` + "\x7f" + `"}`,
	`{"description":"backspace\b form\f"}`,
	`{"x":1e5,"y":-0.5,"z":false}`,
	`[{"type":"object"}]`,
}

func TestPlainJSONHidesNothing(t *testing.T) {
	for _, s := range schemaSamples {
		if jsonx.Plain([]byte(s)) && tokenHits([]byte(s)) {
			t.Errorf("jsonx.Plain(%q) = true, but a string in it holds a reported character", s)
		}
	}
}

func FuzzSchemaScan(f *testing.F) {
	for _, s := range schemaSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if jsonx.Plain(raw) && tokenHits(raw) {
			t.Errorf("jsonx.Plain(%q) = true, but a string in it holds a reported character", raw)
		}
	})
}

func TestSortByHash(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1 << 10, 5000, 1<<14 + 3} {
		entries := make([]editEntry, n)
		for i := range entries {
			// A mix of spread and repeated hashes, some sharing top bits.
			h := uint32(i) * 0x9e3779b9
			if i%7 == 0 {
				h = uint32(i%13) << 28
			}
			entries[i] = editEntry{hash: h, id: int32(i)}
		}
		want := slices.Clone(entries)
		slices.SortStableFunc(want, func(a, b editEntry) int { return cmp.Compare(a.hash, b.hash) })
		got := sortByHash(slices.Clone(entries))
		if len(got) != n {
			t.Fatalf("sortByHash of %d entries returned %d", n, len(got))
		}
		for i := range got {
			if got[i].hash != want[i].hash {
				t.Fatalf("sortByHash of %d entries: entry %d has hash %#x, want %#x", n, i, got[i].hash, want[i].hash)
			}
		}
		ids := map[int32]bool{}
		for _, e := range got {
			ids[e.id] = true
		}
		if len(ids) != n {
			t.Fatalf("sortByHash of %d entries kept %d distinct entries", n, len(ids))
		}
	}
}

// oneEditBrute reports whether a and b are one edit apart as the lookalike
// check means it, by comparing characters.
func oneEditBrute(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	switch len(rb) - len(ra) {
	case 0:
		diff := -1
		for i := range ra {
			if ra[i] != rb[i] {
				if diff >= 0 {
					return false
				}
				diff = i
			}
		}
		return diff >= 0 && !(unicode.IsDigit(ra[diff]) && unicode.IsDigit(rb[diff]))
	case 1:
		for i := range rb {
			if string(rb[:i])+string(rb[i+1:]) == string(ra) {
				return true
			}
		}
	}
	return false
}

func TestOneEditPairsMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	alphabet := []rune("ab1-_é9")
	seen := map[string]bool{}
	var names []wireName
	for len(names) < 400 {
		n := 3 + rng.IntN(5)
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if s := string(r); !seen[s] {
			seen[s] = true
			names = append(names, wireName{name: s})
		}
	}
	got := map[[2]int32]bool{}
	for _, p := range oneEditPairs(names) {
		if p[0] > p[1] {
			p[0], p[1] = p[1], p[0]
		}
		got[p] = true
	}
	want := map[[2]int32]bool{}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			a, b := names[i].name, names[j].name
			ca, cb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
			if ca < lookalikeMinLen || cb < lookalikeMinLen {
				continue
			}
			if oneEditBrute(a, b) {
				want[[2]int32{int32(i), int32(j)}] = true
			}
		}
	}
	for p := range want {
		if !got[p] {
			t.Errorf("oneEditPairs misses %q and %q", names[p[0]].name, names[p[1]].name)
		}
	}
	for p := range got {
		if !want[p] {
			t.Errorf("oneEditPairs pairs %q and %q, which are not one edit apart", names[p[0]].name, names[p[1]].name)
		}
	}
	if len(want) == 0 {
		t.Fatal("the sample has no pairs one edit apart; the test checks nothing")
	}
}
