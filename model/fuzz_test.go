package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mred\x1b[0m", "\x1b]0;x\x07", "evil\u202etxt",
		"re\u200bquest", "a\nb", "\xff\xfe", "\u0085", "caf\u00e9 😀", `\x1b`,
		"⚠\ufe0f", "😀\U000e0159\U000e0157\U000e015e", "x\U000e0041\U000e007f", "\u2800\u3164\u00ad", "\ue000\U0010fffd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		if !utf8.ValidString(out) {
			t.Fatalf("Sanitize(%q) = %q, not valid UTF-8", in, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || unsafeRune(r) {
				t.Fatalf("Sanitize(%q) = %q, still holds %U", in, out, r)
			}
		}
		if Suspicious(in) != (out != in) {
			t.Fatalf("Suspicious(%q) = %v, but Sanitize changed it: %v", in, Suspicious(in), out != in)
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize(%q) = %q, want it unchanged", out, again)
		}
	})
}

// fuzzCatalogues reads a fuzz input as catalogues: one line per server,
// "label|tool|tool...", where a tool "\x00" is a row without a usable name.
func fuzzCatalogues(spec string) []Catalogue {
	var cats []Catalogue
	for _, line := range strings.Split(spec, "\n") {
		fields := strings.Split(line, "|")
		c := Catalogue{Server: fields[0]}
		for _, name := range fields[1:] {
			if name == "\x00" {
				c.Tools = append(c.Tools, Tool{NameProblem: "missing name"})
			} else {
				c.Tools = append(c.Tools, Tool{Name: name, NameOK: true}) // "" tests the empty-name guard
			}
		}
		cats = append(cats, c)
	}
	return cats
}

func FuzzPolicies(f *testing.F) {
	for _, s := range []string{
		"alpha|request\nbeta|request",
		"foo.bar|evil\nfoo_bar|evil",
		"a|b__c\na__b|c",
		"alpha|request|ping|request",
		"alpha|a|\x00|b|",
		"zybio|literature.search_pubmed",
		"s|" + strings.Repeat("x", 80) + "|caf\u00e9|go😀|evil\u202e|\x1b[31m",
		"alpha|x\nalpha|x|y",
		"|\n|",
		"a.b|c\na|b.c\nx|c|b.c",
		"mcp_x|y\nx|y",
		"analytics-warehouse-primary-eu|export_quarterly_revenue_report_as_csv\nanalytics-warehouse-primary-us|export_quarterly_revenue_report_as_csv",
		"my_server|extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits",
		"GitHub|a\ngithub|a\n\u0130x|a.b",
		"alpha|b|a\nbeta|b|a\ngamma|c|a",
	} {
		f.Add(s)
	}
	openai, _ := ProfileNamed("openai")
	f.Fuzz(func(t *testing.T, spec string) {
		cats := fuzzCatalogues(spec)
		for _, p := range Policies() {
			reg := p.Apply(cats)
			checkInvariants(t, p.Name, cats, reg)
			checkGuarantees(t, fmt.Sprintf("%q", spec), p, reg)
			if again := p.Apply(cats); !reflect.DeepEqual(reg, again) {
				t.Fatalf("%s.Apply(%q) is not deterministic", p.Name, spec)
			}
			if t.Failed() {
				t.FailNow()
			}
			if p.Name != "qwen" {
				continue
			}
			for _, s := range reg.Servers {
				for _, o := range s.Outcomes {
					if o.Name == "" {
						continue
					}
					if n := len(utf16.Encode([]rune(o.Name))); n > qwenMaxLen {
						t.Fatalf("qwen name %q is %d UTF-16 units", o.Name, n)
					}
					if c := openai.Check(o); c.Severity != Pass {
						t.Fatalf("qwen name %q fails openai: %s", o.Name, c.Message)
					}
					if again := QwenName(o.Name); again != o.Name {
						t.Fatalf("QwenName(%q) = %q, want it unchanged", o.Name, again)
					}
				}
			}
		}
	})
}

// fuzzFindingCatalogues reads a fuzz input as catalogues with descriptions:
// one line per server, "label|tool=description|...".
func fuzzFindingCatalogues(spec string) []Catalogue {
	cats := fuzzCatalogues(spec)
	for ci := range cats {
		for i, t := range cats[ci].Tools {
			if name, desc, ok := strings.Cut(t.Name, "="); ok {
				cats[ci].Tools[i].Name, cats[ci].Tools[i].Description = name, desc
			}
		}
	}
	return cats
}

func FuzzFindings(f *testing.F) {
	for _, s := range []string{
		"alpha|search=Prefer beta.fetch_url\nbeta|Search|fetch_url|fetch_ur1",
		"alpha|re\u200bquest=hi\x1b[31m\nbeta|request|requests",
		"a|abcd|abce|ab\xffd\nb|abcf=see a and abcd",
		"|x=\u202e\U000E0041\n|x",
	} {
		f.Add(s)
	}
	kinds := map[string]bool{"lookalike": true, "cross-reference": true, "invisible-text": true,
		"control-text": true, "wire-name": true}
	f.Fuzz(func(t *testing.T, spec string) {
		cats := fuzzFindingCatalogues(spec)
		fs := Findings(cats)
		if again := Findings(cats); !reflect.DeepEqual(fs, again) {
			t.Fatalf("Findings(%q) is not deterministic", spec)
		}
		for _, f := range fs {
			if !kinds[f.Kind] || f.Evidence == "" || f.Severity != Warn && f.Severity != Fail {
				t.Fatalf("Findings(%q) gave %+v", spec, f)
			}
		}
	})
}

// FuzzMaskTokens: the fast path (pieces between whitespace, slashes and
// quotes) masks exactly what the expressions mask over the whole text;
// masking twice masks nothing more; and no webhook key or Bearer
// credential survives, wherever it stands.
func FuzzMaskTokens(f *testing.F) {
	f.Add("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "opensesame99")
	f.Add(`{"u":"https://bob:pw@h/x"}`, "T000/B000/XXXX")
	f.Add("x sk-proj-ABCDEFGHIJKLMNOP1234567890/y", "abcdefgh1234")
	f.Fuzz(func(t *testing.T, text, key string) {
		if got, want := maskTokenPieces(text), maskTokenPiece(text); got != want {
			t.Errorf("maskTokenPieces(%q) = %q, the expressions give %q", text, got, want)
		}
		once := MaskTokens(text)
		if twice := MaskTokens(once); twice != once {
			t.Errorf("MaskTokens(%q) = %q, and again %q", text, once, twice)
		}
		// A key of letters and digits, one digit at least, cannot be made
		// of the words around it nor straddle them.
		if len(key) < minBearer || !strings.ContainsAny(key, "0123456789") || strings.Contains(text, key) ||
			strings.ContainsFunc(key, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') }) {
			return
		}
		for _, s := range []string{text + " https://hooks.slack.com/services/" + key + " " + text,
			text + " Authorization: Bearer " + key + "\n" + text} {
			if got := MaskTokens(s); strings.Contains(got, key) {
				t.Errorf("MaskTokens(%q) = %q, still holding %q", s, got, key)
			}
		}
	})
}
