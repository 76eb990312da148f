package model

import (
	"strings"
	"testing"
)

func TestProfileCheck(t *testing.T) {
	n := func(k int) string { return "mcp__alpha__" + strings.Repeat("x", k-12) }
	tests := []struct {
		profile string
		name    string
		want    Severity
	}{
		{"openai", "mcp__alpha__request", Pass},
		{"openai", n(64), Pass},
		{"openai", n(65), Fail},
		{"openai", "alpha.request", Fail},
		{"openai", "caf\u00e9", Fail},
		{"openai", "", Fail},
		{"openai", "9-lives", Pass},

		{"anthropic", n(64), Pass},
		{"anthropic", n(65), Warn},
		{"anthropic", n(128), Warn},
		{"anthropic", n(129), Fail},
		{"anthropic", "alpha.request", Fail},
		{"anthropic", n(100) + ".", Fail},
		{"anthropic", "", Fail},

		{"gemini", "alpha.request", Pass},
		{"gemini", "ns:tool-1", Pass},
		{"gemini", "_private", Pass},
		{"gemini", "1tool", Fail},
		{"gemini", "-tool", Fail},
		{"gemini", n(64), Pass},
		{"gemini", n(65), Fail},
		{"gemini", "a b", Fail},

		{"bedrock", "mcp__alpha__request", Pass},
		{"bedrock", "my-tool", Warn}, // Bedrock Agents rejects '-'
		{"bedrock", "1tool", Warn},   // and a non-letter first
		{"bedrock", "alpha.request", Fail},
		{"bedrock", n(65), Fail},

		{"portable", n(63), Pass},
		{"portable", n(64), Fail},
		{"portable", "my-tool", Pass},
		{"portable", "_tool", Fail},
		{"portable", "alpha.request", Fail},
	}
	for _, tt := range tests {
		p, ok := ProfileNamed(tt.profile)
		if !ok {
			t.Fatalf("ProfileNamed(%q) not found", tt.profile)
		}
		got := p.Check(Outcome{Server: "alpha", Wire: "request", Name: tt.name})
		if got.Severity != tt.want || got.Profile != tt.profile {
			t.Errorf("%s.Check(%q) = %v (%s), want %v", tt.profile, tt.name, got.Severity, got.Message, tt.want)
		}
		if (got.Message == "") != (got.Severity == Pass) {
			t.Errorf("%s.Check(%q) message = %q, want empty exactly on pass", tt.profile, tt.name, got.Message)
		}
	}
}

func TestProfileMessage(t *testing.T) {
	long := "mcp__" + strings.Repeat("s", 40) + "__" + strings.Repeat("t", 30) // 77
	tests := []struct {
		profile string
		o       Outcome
		want    []string
	}{
		{"openai", Outcome{Server: strings.Repeat("s", 40), Wire: strings.Repeat("t", 30), Name: long},
			[]string{"openai:", "server " + strings.Repeat("s", 40), `wire name "` + strings.Repeat("t", 30) + `"`,
				`registered name "` + long + `"`, "(77 characters)", "is over 64",
				"(rule ^[a-zA-Z0-9_-]{1,64}$)", "remedy: a server label at least 13 characters shorter, or a hashing policy such as qwen"}},
		{"anthropic", Outcome{Server: "s", Wire: "t", Name: "mcp__s__" + strings.Repeat("t", 92)},
			[]string{"(100 characters)", "over the documented 64 (accepted up to 128, observed)", "remedy: a hashing policy such as qwen"}},
		{"openai", Outcome{Server: "zybio", Wire: "literature.search_pubmed", Name: "mcp__zybio__literature.search_pubmed"},
			[]string{"server zybio", `has '.', outside [a-zA-Z0-9_-]`, "(36 characters)", "remedy: a hashing policy such as qwen"}},
		{"bedrock", Outcome{Server: "x", Wire: "my-tool", Name: "my-tool"},
			[]string{`has '-', outside [a-zA-Z0-9_] (rule Bedrock Agents ^[a-zA-Z][a-zA-Z0-9_]{0,63}$)`}},
		{"gemini", Outcome{Server: "x", Wire: "1", Name: "1"},
			[]string{`starts with '1'`, "(rule ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$)"}},
		{"openai", Outcome{Server: "x", Wire: "evil\u202e", Name: "evil\u202e"},
			[]string{`"evil\u202e"`}}, // quoted, so the message itself is terminal-safe
	}
	for _, tt := range tests {
		p, _ := ProfileNamed(tt.profile)
		got := p.Check(tt.o).Message
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s.Check(%q) = %q, want it to contain %q", tt.profile, tt.o.Name, got, w)
			}
		}
		if Suspicious(got) {
			t.Errorf("%s.Check(%q) message %q is not terminal-safe", tt.profile, tt.o.Name, got)
		}
	}
}

func TestCheckWireName(t *testing.T) {
	tests := []struct {
		wire string
		want Severity
	}{
		{"request", Pass},
		{"literature.search_pubmed", Pass},
		{"a-b_c.D9", Pass},
		{strings.Repeat("x", 128), Pass},
		{strings.Repeat("x", 129), Warn},
		{"", Warn},
		{"a b", Warn},
		{"ns:tool", Warn},
		{"caf\u00e9", Warn},
	}
	for _, tt := range tests {
		got := CheckWireName(tt.wire)
		if got.Severity != tt.want || got.Profile != "mcp-spec" || (got.Message == "") != (tt.want == Pass) {
			t.Errorf("CheckWireName(%q) = %v, want %v", tt.wire, got, tt.want)
		}
	}
}

func TestProfileLists(t *testing.T) {
	var names []string
	for _, p := range Profiles() {
		names = append(names, p.Name)
		if p.Rule == "" {
			t.Errorf("profile %s has no Rule text", p.Name)
		}
	}
	if got, want := strings.Join(names, " "), "openai anthropic gemini bedrock portable"; got != want {
		t.Errorf("Profiles() = %q, want %q", got, want)
	}
	names = nil
	for _, p := range DefaultProfiles() {
		names = append(names, p.Name)
	}
	if got, want := strings.Join(names, " "), "openai anthropic gemini"; got != want {
		t.Errorf("DefaultProfiles() = %q, want %q", got, want)
	}
	if _, ok := ProfileNamed("nope"); ok {
		t.Errorf("ProfileNamed(%q) found a profile", "nope")
	}
	if got := (Profile{}).Check(Outcome{Name: "x"}); got.Severity != Warn {
		t.Errorf("Profile{}.Check = %v, want a warning", got)
	}
}

// Portable is derived from the others: what it passes, every profile passes.
func TestPortablePassesAll(t *testing.T) {
	portable, _ := ProfileNamed("portable")
	for _, name := range []string{"a", "mcp__alpha__request", "A-b_9", "mcp__s__" + strings.Repeat("y", 55)} {
		o := Outcome{Server: "s", Wire: "w", Name: name}
		if portable.Check(o).Severity != Pass {
			t.Fatalf("portable.Check(%q) fails", name)
		}
		for _, p := range Profiles() {
			if got := p.Check(o); got.Severity == Fail {
				t.Errorf("%s.Check(%q) = %v, want no failure for a portable name", p.Name, name, got)
			}
		}
	}
}
