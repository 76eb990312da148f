package model

import (
	"strings"
	"testing"
)

func TestCodexName(t *testing.T) {
	at64 := strings.Repeat("y", 64-len("mcp__s__"))
	tests := []struct {
		name, server, tool, want string
	}{
		// The two expectations of Codex's own tests.
		{"upstream: long", "my_server", "extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits",
			"mcp__my_server__extremel119a2b97664e41363932dc84de21e2ff1b93b3e9"},
		{"upstream: dots", "server.one", "tool.two", "mcp__server_one__tool_two"},
		{"64 kept", "s", at64, "mcp__s__" + at64},
		// 65 after sanitizing: 24 kept, then the SHA-1 of the raw name (sha1sum).
		{"65 hashed", "s", at64 + "y", "mcp__s__yyyyyyyyyyyyyyyy" + "578ad8a3cada97f3827cd31e13d94ddf70d5bae9"},
		// Rust replaces characters, not UTF-16 units: an emoji is one '_'.
		{"e acute is one char", "s", "caf\u00e9", "mcp__s__caf_"},
		{"emoji is one char", "s", "go\U0001F600", "mcp__s__go_"},
	}
	for _, tt := range tests {
		got := CodexName(tt.server, tt.tool)
		if got != tt.want {
			t.Errorf("%s: CodexName(%q, %q) = %q, want %q", tt.name, tt.server, tt.tool, got, tt.want)
		}
		if len(got) > codexMaxLen {
			t.Errorf("%s: CodexName(%q, %q) is %d long, want <= %d", tt.name, tt.server, tt.tool, len(got), codexMaxLen)
		}
	}
	// The hash is of the raw name, so tools that sanitize alike and are long
	// stay apart.
	a, b := CodexName("s", strings.Repeat("x", 60)+".a"), CodexName("s", strings.Repeat("x", 60)+"_a")
	if a == b {
		t.Errorf("CodexName gives %q for both a '.' and a '_' variant, want the raw-name hash to differ", a)
	}
}

func TestCodexPolicy(t *testing.T) {
	p := mustPolicy("codex")
	tests := []struct {
		name   string
		cats   []Catalogue
		routes string
		check  func(t *testing.T, reg *Registry)
	}{
		{
			name:   "a label outside ^[a-zA-Z0-9_-]+$ is refused",
			cats:   []Catalogue{catalogue("foo.bar", "evil", "ping"), catalogue("foo_bar", "evil")},
			routes: "mcp__foo_bar__evil->foo_bar/evil",
			check: func(t *testing.T, reg *Registry) {
				s, _ := reg.Server("foo.bar")
				want := `server refused by codex: label "foo.bar" has '.'; codex starts only servers whose label matches ^[a-zA-Z0-9_-]+$`
				if !s.Failed || s.Err != want {
					t.Errorf("foo.bar failed %v, Err %q, want failed with %q", s.Failed, s.Err, want)
				}
				for _, o := range s.Outcomes {
					if o.Kind != Dropped || o.Reason != want || o.Name != "" {
						t.Errorf("foo.bar row %d = %v %q (%q), want dropped, unnamed, with the refusal", o.Index, o.Kind, o.Name, o.Reason)
					}
				}
				if len(reg.Collisions()) != 0 {
					t.Errorf("Collisions() = %v, want none: a refused server names nothing", reg.Collisions())
				}
			},
		},
		{
			name:   "an empty label is refused",
			cats:   []Catalogue{catalogue("", "x")},
			routes: "",
			check: func(t *testing.T, reg *Registry) {
				if s := reg.Servers[0]; !s.Failed || !strings.Contains(s.Err, `label "" is empty`) {
					t.Errorf("empty label: failed %v, Err %q", s.Failed, s.Err)
				}
			},
		},
		{
			name:   "a raw name seen before is skipped with a warning",
			cats:   []Catalogue{catalogue("a", "b__c"), catalogue("a__b", "c")},
			routes: "mcp__a__b__c->a/b__c",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "a__b", 0)
				want := "skipped with a warning: raw name mcp__a__b__c already seen from server a (tool b__c)"
				if o.Kind != Dropped || o.By != "a" || o.Reason != want {
					t.Errorf("a__b row = %v by %q (%q), want dropped by a (%q)", o.Kind, o.By, o.Reason, want)
				}
				if s, _ := reg.Server("a__b"); len(s.Notes) != 1 || s.Failed {
					t.Errorf("a__b notes %q failed %v, want the separator note and no failure", s.Notes, s.Failed)
				}
			},
		},
		{
			name:   "a sanitized name used before is skipped with a warning",
			cats:   []Catalogue{catalogue("alpha", "a.b", "a_b")},
			routes: "mcp__alpha__a_b->alpha/a.b",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "alpha", 1)
				want := "skipped with a warning: name mcp__alpha__a_b already used by server alpha (tool a.b)"
				if o.Kind != Dropped || o.Reason != want {
					t.Errorf("row 1 = %v (%q), want dropped (%q)", o.Kind, o.Reason, want)
				}
				if w := outcomeOf(reg, "alpha", 0); w.Reason != `sanitized: '.' is outside [A-Za-z0-9_-]` {
					t.Errorf("row 0 reason = %q, want the sanitizing note", w.Reason)
				}
			},
		},
		{
			// The first row of raw name mcp__alpha__a_b lost its name to a.b;
			// the second is still skipped for the raw name, naming the first.
			name:   "a raw name whose first row lost its name is still a raw name seen",
			cats:   []Catalogue{catalogue("alpha", "a.b", "a_b", "a_b")},
			routes: "mcp__alpha__a_b->alpha/a.b",
			check: func(t *testing.T, reg *Registry) {
				if o := outcomeOf(reg, "alpha", 1); !strings.Contains(o.Reason, "name mcp__alpha__a_b already used by server alpha (tool a.b)") {
					t.Errorf("row 1 reason = %q, want the name already used", o.Reason)
				}
				o := outcomeOf(reg, "alpha", 2)
				want := "skipped with a warning: raw name mcp__alpha__a_b already seen from server alpha (tool a_b)"
				if o.Kind != Dropped || o.Reason != want {
					t.Errorf("row 2 = %v (%q), want dropped (%q)", o.Kind, o.Reason, want)
				}
			},
		},
		{
			name: "a long name is hashed and keeps its uncut form",
			cats: []Catalogue{catalogue("my_server",
				"extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits")},
			routes: "mcp__my_server__extremel119a2b97664e41363932dc84de21e2ff1b93b3e9->my_server/" +
				"extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits",
			check: func(t *testing.T, reg *Registry) {
				o := reg.Servers[0].Outcomes[0]
				if o.Untruncated != "mcp__my_server__extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits" ||
					!strings.Contains(o.Reason, "shortened: 95 characters is over 64") {
					t.Errorf("row = untruncated %q, reason %q", o.Untruncated, o.Reason)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := routes(reg); got != tt.routes {
				t.Errorf("routes = %q, want %q", got, tt.routes)
			}
			if tt.check != nil {
				tt.check(t, reg)
			}
		})
	}
}
