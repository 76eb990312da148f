package model

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func prompt(name string) Prompt { return Prompt{Name: name, NameOK: true} }

// promptFixture is two servers whose prompts collide under every naming:
// the same name, names that sanitize alike, and a name that reads as
// another server's renamed one.
func promptFixture() []PromptCatalogue {
	return []PromptCatalogue{
		{Server: "alpha", Prompts: []Prompt{prompt("greet"), prompt("code review"), prompt("only-alpha")}},
		{Server: "beta", Prompts: []Prompt{prompt("greet"), prompt("code_review"), {NameProblem: "missing name"}}},
		{Server: "my server", Prompts: []Prompt{prompt("greet")}},
		{Server: "my_server", Prompts: []Prompt{prompt("greet")}},
		{Server: "gamma", Prompts: []Prompt{prompt("alpha.greet"), prompt("help")}},
	}
}

func TestPromptPoliciesGolden(t *testing.T) {
	var b strings.Builder
	for _, name := range []string{"claude-code", "gemini-cli", "vscode", "codex", "lionagi"} {
		p := PromptPolicyFor(name)
		reg := p.Apply(promptFixture())
		fmt.Fprintf(&b, "== %s: %s\n", p.Name, p.Summary)
		for _, sr := range reg.Servers {
			for _, o := range sr.Outcomes {
				fmt.Fprintf(&b, "%-9s %-13q %-26s %-10s %s\n", o.Server, o.Wire, o.Name, o.Kind, o.Reason)
			}
		}
		for _, c := range reg.Collisions() {
			fmt.Fprintf(&b, "collision %s (%s), winner %d of %d\n", c.Name, c.Class, c.Winner, len(c.Rows))
		}
	}
	path := filepath.Join("testdata", "prompts.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("prompt outcomes differ from %s (rerun with -update and check the diff):\n%s", path, got)
	}
}

func TestPromptNames(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"claude-code", ClaudeCodeName("my server", "code review"), "mcp__my_server__code_review"},
		{"vscode", VSCodePromptName("my server", "code review"), "mcp.my_server.code_review"},
		{"vscode keeps dots", VSCodePromptName("a.b", "c"), "mcp.a.b.c"},
		{"gemini", GeminiPromptName("  code \t review "), "code-review"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// Every listed prompt gets exactly one outcome under every prompt policy.
func TestPromptOutcomePerRow(t *testing.T) {
	for _, p := range append(PromptPolicies(), PromptPolicyFor("qwen")) {
		reg := p.Apply(promptFixture())
		for i, c := range promptFixture() {
			if got := len(reg.Servers[i].Outcomes); got != len(c.Prompts) {
				t.Errorf("%s: server %s has %d outcomes, want %d", p.Name, c.Server, got, len(c.Prompts))
			}
		}
		seen := map[string]bool{}
		for _, rt := range reg.Routes {
			if seen[rt.Name] {
				t.Errorf("%s: %s routed twice", p.Name, rt.Name)
			}
			seen[rt.Name] = true
		}
	}
}

func ExamplePromptPolicy_Apply() {
	cats := []PromptCatalogue{
		{Server: "alpha", Prompts: []Prompt{{Name: "greet", NameOK: true}}},
		{Server: "beta", Prompts: []Prompt{{Name: "greet", NameOK: true}}},
	}
	for _, client := range []string{"claude-code", "gemini-cli", "vscode"} {
		reg := PromptPolicyFor(client).Apply(cats)
		for _, sr := range reg.Servers {
			o := sr.Outcomes[0]
			fmt.Println(client, o.Server, o.Name, o.Kind)
		}
	}
	// Output:
	// claude-code alpha mcp__alpha__greet renamed
	// claude-code beta mcp__beta__greet renamed
	// gemini-cli alpha alpha.greet renamed
	// gemini-cli beta beta.greet renamed
	// vscode alpha mcp.alpha.greet renamed
	// vscode beta mcp.beta.greet renamed
}

// FuzzPromptPolicies: under every prompt naming, every listed prompt gets
// one outcome, a live one has a route of its own, and Apply is
// deterministic (checkInvariants, as for tools).
func FuzzPromptPolicies(f *testing.F) {
	for _, s := range []string{
		"alpha|greet\nbeta|greet",
		"my server|greet\nmy_server|greet",
		"alpha|greet\nbeta|greet\ngamma|alpha.greet",
		"a.b|c\na|b.c",
		"x|code review|code_review| code  review ",
		"alpha|\x00||greet",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		var cats []PromptCatalogue
		var rows []Catalogue
		for _, c := range fuzzCatalogues(spec) {
			pc := PromptCatalogue{Server: c.Server}
			for _, tl := range c.Tools {
				pc.Prompts = append(pc.Prompts, Prompt{Name: tl.Name, NameOK: tl.NameOK, NameProblem: tl.NameProblem})
			}
			cats, rows = append(cats, pc), append(rows, pc.rows())
		}
		for _, p := range append(PromptPolicies(), PromptPolicyFor("lionagi")) {
			reg := p.Apply(cats)
			checkInvariants(t, p.Name, rows, reg)
			if again := p.Apply(cats); !reflect.DeepEqual(reg, again) {
				t.Fatalf("%s.Apply(%q) is not deterministic", p.Name, spec)
			}
			if t.Failed() {
				t.FailNow()
			}
		}
	})
}
