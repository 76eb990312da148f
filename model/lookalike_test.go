package model

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestLookalikes(t *testing.T) {
	many := []Catalogue{catalogue("alpha", "search")}
	for _, s := range []string{"b1", "b2", "b3", "b4", "b5"} {
		many = append(many, catalogue(s, "Search"))
	}
	tests := []struct {
		name string
		cats []Catalogue
		want []string
	}{
		{"case", []Catalogue{catalogue("alpha", "search"), catalogue("beta", "Search")}, []string{
			`warn alpha/search: "search" on alpha and "Search" on beta differ only in case`,
			`warn beta/Search: "Search" on beta and "search" on alpha differ only in case`,
		}},
		{"dash", []Catalogue{catalogue("alpha", "fetch-url"), catalogue("beta", "fetch_url")}, []string{
			`warn alpha/fetch-url: "fetch-url" on alpha and "fetch_url" on beta differ only in '-' versus '_'`,
			`warn beta/fetch_url: "fetch_url" on beta and "fetch-url" on alpha differ only in '-' versus '_'`,
		}},
		{"case and dash", []Catalogue{catalogue("alpha", "Fetch-URL"), catalogue("beta", "fetch_url")}, []string{
			`warn alpha/Fetch-URL: "Fetch-URL" on alpha and "fetch_url" on beta differ only in case and '-' versus '_'`,
			`warn beta/fetch_url: "fetch_url" on beta and "Fetch-URL" on alpha differ only in case and '-' versus '_'`,
		}},
		{"one character changed", []Catalogue{catalogue("alpha", "fetch_url"), catalogue("beta", "fetch_ur1")}, []string{
			`warn alpha/fetch_url: "fetch_url" on alpha and "fetch_ur1" on beta are one edit apart: 'l' against '1' at character 9`,
			`warn beta/fetch_ur1: "fetch_ur1" on beta and "fetch_url" on alpha are one edit apart: '1' against 'l' at character 9`,
		}},
		{"one character added", []Catalogue{catalogue("alpha", "request"), catalogue("beta", "requests", "x")}, []string{
			`warn alpha/request: "request" on alpha and "requests" on beta are one edit apart: "requests" has an extra 's' at character 8`,
			`warn beta/requests: "requests" on beta and "request" on alpha are one edit apart: "requests" has an extra 's' at character 8`,
		}},
		{"non-ASCII", []Catalogue{catalogue("alpha", "caf\u00e9"), catalogue("beta", "cafe")}, []string{
			`warn alpha/café: "café" on alpha and "cafe" on beta are one edit apart: 'é' against 'e' at character 4`,
			`warn beta/cafe: "cafe" on beta and "café" on alpha are one edit apart: 'e' against 'é' at character 4`,
		}},
		{"the other servers are listed, at most three", many, []string{
			`warn alpha/search: "search" on alpha and "Search" on b1, b2, b3 and 2 more differ only in case`,
			`warn b1/Search: "Search" on b1 and "search" on alpha differ only in case`,
			`warn b2/Search: "Search" on b2 and "search" on alpha differ only in case`,
			`warn b3/Search: "Search" on b3 and "search" on alpha differ only in case`,
			`warn b4/Search: "Search" on b4 and "search" on alpha differ only in case`,
			`warn b5/Search: "Search" on b5 and "search" on alpha differ only in case`,
		}},
		{"invisible characters", []Catalogue{catalogue("alpha", "request"), catalogue("beta", "re\u200b\u00adquest\ufe0f")}, []string{
			"warn alpha/request: \"request\" on alpha and \"re\\u200b\\u00adquest\ufe0f\" on beta differ only in invisible characters",
			"warn beta/re\u200b\u00adquest\ufe0f: \"re\\u200b\\u00adquest\ufe0f\" on beta and \"request\" on alpha differ only in invisible characters",
		}},
		{"invisible characters, case and dash", []Catalogue{catalogue("alpha", "fetch_url"), catalogue("beta", "Fetch-\u3164URL\U000e0041")}, []string{
			"warn alpha/fetch_url: \"fetch_url\" on alpha and \"Fetch-\u3164URL\\U000e0041\" on beta differ only in invisible characters, case or '-' versus '_'",
			"warn beta/Fetch-\u3164URL\U000e0041: \"Fetch-\u3164URL\\U000e0041\" on beta and \"fetch_url\" on alpha differ only in invisible characters, case or '-' versus '_'",
		}},
		{"one server is not across servers", []Catalogue{catalogue("alpha", "search", "Search", "serch")}, nil},
		{"identical names are a collision", []Catalogue{catalogue("alpha", "search"), catalogue("beta", "search")}, nil},
		{"short names", []Catalogue{catalogue("alpha", "abc"), catalogue("beta", "abd", "abcd")}, nil},
		{"a digit for a digit is a series", []Catalogue{catalogue("alpha", "get_page_1"), catalogue("beta", "get_page_2")}, nil},
		{"two edits", []Catalogue{catalogue("alpha", "abcdef"), catalogue("beta", "abcfed", "bacdef")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := findingsOf(tt.cats, "lookalike"); !slices.Equal(got, tt.want) {
				t.Errorf("lookalikes =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// The deletion index must find exactly the pairs a comparison of every name
// with every other finds.
func TestOneEditIndexMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alphabet := []rune("ab_-12é")
	for round := range 50 {
		seen := map[string]bool{}
		var names []wireName
		for range 120 {
			n := 3 + rng.IntN(4)
			var sb strings.Builder
			for range n {
				sb.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
			if s := sb.String(); !seen[s] {
				seen[s] = true
				names = append(names, wireName{name: s, cats: []int{0}, rows: []int{0}})
			}
		}
		got := map[[2]int32]bool{}
		for _, p := range oneEditPairs(names) {
			a, b := min(p[0], p[1]), max(p[0], p[1])
			got[[2]int32{a, b}] = true
		}
		want := map[[2]int32]bool{}
		for i := range names {
			for j := i + 1; j < len(names); j++ {
				if bruteOneEdit(names[i].name, names[j].name) {
					want[[2]int32{int32(i), int32(j)}] = true
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			for k := range want {
				if !got[k] {
					t.Errorf("round %d: missed %q / %q", round, names[k[0]].name, names[k[1]].name)
				}
			}
			for k := range got {
				if !want[k] {
					t.Errorf("round %d: extra %q / %q", round, names[k[0]].name, names[k[1]].name)
				}
			}
			return
		}
	}
}

// bruteOneEdit is the definition: both names at least 4 characters, one
// character changed (not a digit for a digit), added or removed.
func bruteOneEdit(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < lookalikeMinLen || len(rb) < lookalikeMinLen {
		return false
	}
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
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
		isDigit := func(r rune) bool { return r >= '0' && r <= '9' }
		return diff >= 0 && !(isDigit(ra[diff]) && isDigit(rb[diff]))
	case 1:
		for i := range ra {
			if string(ra[:i])+string(ra[i+1:]) == string(rb) {
				return true
			}
		}
	}
	return false
}
