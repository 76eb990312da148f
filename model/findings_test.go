package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func described(server string, tools ...[2]string) Catalogue {
	c := Catalogue{Server: server}
	for _, t := range tools {
		c.Tools = append(c.Tools, Tool{Name: t[0], NameOK: true, Description: t[1]})
	}
	return c
}

// findingsOf renders the findings of one kind as "server/tool: evidence".
func findingsOf(cats []Catalogue, kind string) []string {
	var out []string
	for _, f := range Findings(cats) {
		if f.Kind == kind {
			out = append(out, fmt.Sprintf("%v %s/%s: %s", f.Severity, f.Server, f.Tool, f.Evidence))
		}
	}
	return out
}

func TestTextFindings(t *testing.T) {
	tests := []struct {
		name string
		tool Tool
		want []string
	}{
		{"zero-width in a name", Tool{Name: "re\u200bquest", NameOK: true}, []string{
			`fail invisible-text alpha/re` + "\u200b" + `quest: name "re\u200bquest" on alpha holds 1 invisible character, first U+200B (invisible format character) at character 3`,
		}},
		{"newline in a name", Tool{Name: "a\nb", NameOK: true}, []string{
			`fail control-text alpha/a` + "\n" + `b: name "a\nb" on alpha holds 1 control character, first U+000A (control) at character 2`,
		}},
		{"escape in a description, line breaks are prose", Tool{Name: "ok", NameOK: true, Description: "line one\n\tline \x1b[31mred\x1b[0m"}, []string{
			`warn control-text alpha/ok: description of "ok" on alpha holds 2 control characters, first U+001B (escape) at character 16: "line one\n\tline \x1b[31mred\x1b[0m"`,
		}},
		{"bidi and tag characters in a description", Tool{Name: "ok", NameOK: true,
			Description: strings.Repeat("x", 20) + "\u202eevil\U000E0041" + strings.Repeat("y", 20)}, []string{
			`fail invisible-text alpha/ok: description of "ok" on alpha holds 2 invisible characters, first U+202E (bidi control) at character 21: "...xxxxxxxxxxxxxxxx\u202eevil\U000e0041yyyyyyyyyyy..."`,
		}},
		{"invalid UTF-8 in a title", Tool{Name: "ok", NameOK: true, Title: "bad \xff byte"}, []string{
			`warn control-text alpha/ok: title of "ok" on alpha holds 1 control character, first the invalid UTF-8 byte 0xff at character 5: "bad \xff byte"`,
		}},
		{"a row without a name is still read", Tool{NameProblem: "missing name", Description: "hi\u200d"}, []string{
			`fail invisible-text alpha/: description of row 0 on alpha holds 1 invisible character, first U+200D (invisible format character) at character 3: "hi\u200d"`,
		}},
		{"plain text", Tool{Name: "ok", NameOK: true, Title: "Ok", Description: "Fine.\nReally — fine, café."}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cats := []Catalogue{{Server: "alpha", Tools: []Tool{tt.tool}}}
			var got []string
			for _, kind := range []string{"invisible-text", "control-text"} {
				for _, f := range findingsOf(cats, kind) {
					got = append(got, strings.Replace(f, " ", " "+kind+" ", 1))
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestWireNameFindings(t *testing.T) {
	cats := []Catalogue{withRow(catalogue("alpha", "ping", "a b", "ping", strings.Repeat("x", 130)), missingName)}
	want := []string{
		`warn alpha/a b: mcp-spec: wire name "a b" (3 characters) has ' ', outside [A-Za-z0-9_.-]; the spec says SHOULD be 1..128 of [A-Za-z0-9_.-]`,
		`warn alpha/ping: "ping" is listed 2 times by alpha (rows 0, 2); the spec says names SHOULD be unique within a server`,
		`warn alpha/` + strings.Repeat("x", 130) + `: mcp-spec: wire name "` + strings.Repeat("x", 130) +
			`" (130 characters) is over 128; the spec says SHOULD be 1..128 of [A-Za-z0-9_.-]`,
		`warn alpha/: row 4 on alpha has no usable name (missing name)`,
	}
	if got := findingsOf(cats, "wire-name"); !slices.Equal(got, want) {
		t.Errorf("wire-name findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFindingsOrder(t *testing.T) {
	cats := []Catalogue{
		described("beta", [2]string{"Search", ""}, [2]string{"x\u200b", "see alpha"}),
		described("alpha", [2]string{"search", ""}),
	}
	var got []string
	for _, f := range Findings(cats) {
		got = append(got, f.Server+"/"+f.Tool+" "+f.Kind)
	}
	want := []string{
		"beta/Search lookalike",
		"beta/x\u200b invisible-text", "beta/x\u200b cross-reference", "beta/x\u200b wire-name",
		"alpha/search lookalike",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Findings order = %q, want %q (servers as given, then rows, then kinds)", got, want)
	}
	if fs := Findings(nil); len(fs) != 0 {
		t.Errorf("Findings(nil) = %v, want none", fs)
	}
	if a, b := Findings(benchCatalogues(5, 40)), Findings(benchCatalogues(5, 40)); !reflect.DeepEqual(a, b) {
		t.Errorf("Findings is not deterministic")
	}
}

// benchCatalogues is a large config: servers × tools rows, names built from
// a small vocabulary so that some repeat across servers and some are one
// edit apart, and descriptions of about twenty words that now and then name
// a tool or a server.
func benchCatalogues(servers, tools int) []Catalogue {
	rng := rand.New(rand.NewPCG(1, 2))
	verbs := []string{"get", "list", "create", "update", "delete", "search", "fetch", "send", "read", "write", "sync", "export"}
	nouns := []string{"user", "users", "issue", "issues", "page", "file", "record", "message", "event", "report", "invoice", "ticket", "branch", "commit"}
	words := []string{"the", "a", "returns", "for", "given", "with", "and", "of", "items", "result", "query", "id", "when", "use", "this", "tool"}
	cats := make([]Catalogue, servers)
	for s := range cats {
		cats[s].Server = fmt.Sprintf("srv-%03d", s)
		for t := range tools {
			name := fmt.Sprintf("%s_%s_%x", verbs[rng.IntN(len(verbs))], nouns[rng.IntN(len(nouns))], rng.IntN(1<<20))
			if t%10 == 0 {
				name = verbs[t/10%len(verbs)] + "_" + nouns[s%len(nouns)]
			}
			var d strings.Builder
			for w := range 20 {
				if w > 0 {
					d.WriteByte(' ')
				}
				switch rng.IntN(40) {
				case 0:
					d.WriteString(fmt.Sprintf("srv-%03d", rng.IntN(servers)))
				case 1:
					d.WriteString(verbs[rng.IntN(len(verbs))] + "_" + nouns[rng.IntN(len(nouns))])
				default:
					d.WriteString(words[rng.IntN(len(words))])
				}
			}
			cats[s].Tools = append(cats[s].Tools, Tool{Name: name, NameOK: true, Description: d.String()})
		}
	}
	return cats
}

func BenchmarkFindings(b *testing.B) {
	cats := benchCatalogues(100, 200)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(Findings(cats))
	}
	b.ReportMetric(float64(n), "findings")
}
