package model

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

// checkGuarantees holds what each policy promises about the names it
// registers, and what Collisions promises about any registry.
func checkGuarantees(t *testing.T, label string, p Policy, reg *Registry) {
	t.Helper()
	openai, _ := ProfileNamed("openai")
	gemini, _ := ProfileNamed("gemini")
	for _, rt := range reg.Routes {
		units := len(utf16.Encode([]rune(rt.Name)))
		switch p.Name {
		case "lionagi", "qwen", "codex", "vscode":
			if c := openai.Check(Outcome{Name: rt.Name}); c.Severity != Pass {
				t.Errorf("%s: %s registered %q, which fails openai: %s", label, p.Name, rt.Name, c.Message)
			}
		case "gemini-cli":
			if c := gemini.Check(Outcome{Name: rt.Name}); c.Severity != Pass {
				t.Errorf("%s: gemini-cli registered %q, which fails gemini: %s", label, rt.Name, c.Message)
			}
		}
		switch {
		case p.Name == "qwen" && units > qwenMaxLen, p.Name == "gemini-cli" && units > geminiMaxLen,
			p.Name == "vscode" && units > vscodeMaxLen, p.Name == "codex" && units > codexMaxLen:
			t.Errorf("%s: %s registered %q, %d UTF-16 units", label, p.Name, rt.Name, units)
		}
	}

	named := make(map[string]int)
	for _, s := range reg.Servers {
		for _, o := range s.Outcomes {
			if o.Name != "" {
				named[o.Name]++
			}
		}
	}
	seen := make(map[string]bool)
	for _, c := range reg.Collisions() {
		if seen[c.Name] || len(c.Rows) < 2 || len(c.Rows) != named[c.Name] {
			t.Errorf("%s: %s collision %q has %d rows (seen before %v), want every one of the %d rows naming it once",
				label, p.Name, c.Name, len(c.Rows), seen[c.Name], named[c.Name])
		}
		seen[c.Name] = true
		for _, o := range c.Rows {
			if o.Name != c.Name {
				t.Errorf("%s: %s collision %q holds a row named %q", label, p.Name, c.Name, o.Name)
			}
		}
		rt, routed := reg.Lookup(c.Name)
		switch {
		case c.Winner < -1 || c.Winner >= len(c.Rows):
			t.Errorf("%s: %s collision %q winner %d out of range", label, p.Name, c.Name, c.Winner)
		case c.Winner == -1 && routed:
			t.Errorf("%s: %s collision %q has no winner but routes to %s", label, p.Name, c.Name, rt.Server)
		case c.Winner >= 0 && (!c.Rows[c.Winner].Live() || !routed || rt.Index != c.Rows[c.Winner].Index):
			t.Errorf("%s: %s collision %q winner %+v is not its route %+v", label, p.Name, c.Name, c.Rows[c.Winner], rt)
		}
		if c.Class < CollisionSameWire || c.Class > CollisionOther {
			t.Errorf("%s: %s collision %q has class %v", label, p.Name, c.Name, c.Class)
		}
	}
	for name, n := range named {
		if n > 1 && !seen[name] {
			t.Errorf("%s: %s: %d rows name %q but Collisions() leaves it out", label, p.Name, n, name)
		}
	}
}

// randomName draws a name from pieces that stress the policies: separators,
// characters each policy replaces, wide characters, hostile ones, lengths
// around every limit.
func randomName(rng *rand.Rand) string {
	pieces := []string{"a", "b", "x", "Z", "req", "_", "__", "-", ".", ":", " ", "/", "mcp_", "mcp__",
		"\u00e9", "\U0001F600", "\u202e", "\u200b", "\x1b", "\u0130", "\u212a", "1", "9",
		strings.Repeat("long", 8), strings.Repeat("y", 30)}
	var sb strings.Builder
	for n := rng.IntN(6); n >= 0; n-- {
		sb.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return sb.String()
}

func randomCatalogues(rng *rand.Rand) []Catalogue {
	labels := []string{"alpha", "beta"}
	cats := make([]Catalogue, 1+rng.IntN(4))
	for i := range cats {
		if rng.IntN(2) == 0 {
			cats[i].Server = labels[rng.IntN(len(labels))]
		} else {
			cats[i].Server = randomName(rng)
		}
		for n := rng.IntN(5); n > 0; n-- {
			switch rng.IntN(12) {
			case 0:
				cats[i].Tools = append(cats[i].Tools, Tool{NameProblem: "missing name"})
			case 1, 2: // a name some other row may have too
				cats[i].Tools = append(cats[i].Tools, Tool{Name: []string{"request", "ping", "a_b", "a.b"}[rng.IntN(4)], NameOK: true})
			default:
				cats[i].Tools = append(cats[i].Tools, Tool{Name: randomName(rng), NameOK: true})
			}
		}
	}
	return cats
}

// TestPolicyProperties runs every policy over generated configs: every
// advertised row gets exactly one outcome, each policy keeps its own
// promises about names, and Collisions accounts for every shared name.
func TestPolicyProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 1))
	for i := range 3000 {
		cats := randomCatalogues(rng)
		for _, p := range Policies() {
			label := fmt.Sprintf("config %d %+v", i, cats)
			reg := p.Apply(cats)
			checkInvariants(t, label, cats, reg)
			checkGuarantees(t, label, p, reg)
		}
		if t.Failed() {
			return
		}
	}
}

func TestPresetNameProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 5000 {
		s, tool := randomName(rng), randomName(rng)
		if n := CodexName(s, tool); len(n) > codexMaxLen || strings.ContainsFunc(n, func(r rune) bool { return !isOpenAIChar(r) }) {
			t.Fatalf("CodexName(%q, %q) = %q, not within ^[a-zA-Z0-9_-]{1,64}$", s, tool, n)
		}
		if n := GeminiName(s + "_" + tool); len(n) > geminiMaxLen || GeminiName(n) != n {
			t.Fatalf("GeminiName(%q) = %q: over %d, or renamed again", s+"_"+tool, n, geminiMaxLen)
		}
		if n := ClaudeCodeName(s, tool); strings.ContainsFunc(n, func(r rune) bool { return !isOpenAIChar(r) }) {
			t.Fatalf("ClaudeCodeName(%q, %q) = %q holds a character outside [a-zA-Z0-9_-]", s, tool, n)
		}
		if id, _ := vscodeID(vscodePrefix(vscodeBase(s), 1+rng.IntN(12)), tool); len(id) > vscodeMaxLen {
			t.Fatalf("vscode id for %q, %q = %q, over %d", s, tool, id, vscodeMaxLen)
		}
	}
}
