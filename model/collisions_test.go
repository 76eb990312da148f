package model

import (
	"fmt"
	"strings"
	"testing"
)

// A classConfig is one collision class of docs/naming.md, as catalogues. short
// abbreviates its long names in the rendered outcomes.
type classConfig struct {
	name  string
	cats  []Catalogue
	short *strings.Replacer
}

func classConfigs() []classConfig {
	const (
		region = "analytics-warehouse-primary-" // labels alike for 26 characters
		export = "export_quarterly_revenue_report_as_csv"
		search = "search_indexed_documentation_pages_and_return_the_matching_"
	)
	none := strings.NewReplacer()
	return []classConfig{
		{"same wire name", []Catalogue{catalogue("alpha", "request"), catalogue("beta", "request")}, none},
		{"labels sanitize alike", []Catalogue{catalogue("foo.bar", "evil"), catalogue("foo_bar", "evil")}, none},
		{"separator ambiguity", []Catalogue{catalogue("a", "b__c"), catalogue("a__b", "c")}, none},
		{"prefix re-use", []Catalogue{catalogue("mcp_x", "y"), catalogue("x", "y")}, none},
		{"truncation: first 30 and last 30",
			[]Catalogue{catalogue(region+"eu", export), catalogue(region+"us", export)},
			strings.NewReplacer(region, "R-", export, "EXPORT")},
		{"truncation: first 64",
			[]Catalogue{catalogue("docs", search+"sections", search+"summaries")},
			strings.NewReplacer(search, "SEARCH_")},
		{"duplicate in one server", []Catalogue{catalogue("alpha", "request", "ping", "request")}, none},
	}
}

// renderClass renders every row as "kind name" and every collision as
// "class: winner server/row", or "no collision".
func renderClass(reg *Registry) string {
	var rows []string
	for _, s := range reg.Servers {
		for _, o := range s.Outcomes {
			rows = append(rows, fmt.Sprintf("%v %s", o.Kind, o.Name))
		}
	}
	cs := reg.Collisions()
	if len(cs) == 0 {
		return strings.Join(rows, ", ") + "; no collision"
	}
	var parts []string
	for _, c := range cs {
		winner := "none"
		if c.Winner >= 0 {
			winner = fmt.Sprintf("%s/%d", c.Rows[c.Winner].Server, c.Rows[c.Winner].Index)
		}
		parts = append(parts, fmt.Sprintf("%v: winner %s", c.Class, winner))
	}
	return strings.Join(rows, ", ") + "; " + strings.Join(parts, ", ")
}

// TestCollisionClasses is docs/naming.md's list of collision classes, each
// config under every policy: what every row ends as, and how Collisions
// classes the name and who holds it.
func TestCollisionClasses(t *testing.T) {
	tests := []struct {
		config string
		want   map[string]string // policy -> renderClass
	}{
		{
			config: "same wire name",
			want: map[string]string{
				"lionagi-legacy":        "registered request, dropped request; same wire name: winner alpha/0",
				"lionagi-legacy-update": "displaced request, registered request; same wire name: winner beta/0",
				"lionagi":               "renamed mcp__alpha__request, renamed mcp__beta__request; no collision",
				"qwen":                  "renamed mcp__alpha__request, renamed mcp__beta__request; no collision",
				"symfonic":              "renamed alpha.request, renamed beta.request; no collision",
				"claude-code":           "renamed mcp__alpha__request, renamed mcp__beta__request; no collision",
				"codex":                 "renamed mcp__alpha__request, renamed mcp__beta__request; no collision",
				"gemini-cli":            "renamed mcp_alpha_request, renamed mcp_beta_request; no collision",
				"vscode":                "renamed mcp_alpha_request, renamed mcp_beta_request; no collision",
				"openai-agents":         "dropped request, dropped request; same wire name: winner none",
			},
		},
		{
			config: "labels sanitize alike",
			want: map[string]string{
				"lionagi-legacy":        "registered evil, dropped evil; same wire name: winner foo.bar/0",
				"lionagi-legacy-update": "displaced evil, registered evil; same wire name: winner foo_bar/0",
				"lionagi":               "dropped mcp__foo.bar__evil, renamed mcp__foo_bar__evil; no collision",
				"qwen":                  "renamed mcp__foo_bar__evil_1oxrpi0, renamed mcp__foo_bar__evil; no collision",
				"symfonic":              "renamed foo.bar.evil, renamed foo_bar.evil; no collision",
				"claude-code":           "renamed mcp__foo_bar__evil, dropped mcp__foo_bar__evil; labels sanitize alike: winner foo.bar/0",
				"codex":                 "dropped , renamed mcp__foo_bar__evil; no collision",
				"gemini-cli":            "renamed mcp_foo.bar_evil, renamed mcp_foo_bar_evil; no collision",
				"vscode":                "renamed mcp_foo_bar_evil, dropped mcp_foo_bar_evil; labels sanitize alike: winner foo.bar/0",
				"openai-agents":         "dropped evil, dropped evil; same wire name: winner none",
			},
		},
		{
			config: "separator ambiguity",
			want: map[string]string{
				"lionagi-legacy":        "registered b__c, registered c; no collision",
				"lionagi-legacy-update": "registered b__c, registered c; no collision",
				"lionagi":               "renamed mcp__a__b__c, dropped mcp__a__b__c; separator ambiguity: winner a/0",
				"qwen":                  "displaced mcp__a__b__c, renamed mcp__a__b__c; separator ambiguity: winner a__b/0",
				"symfonic":              "registered b__c, registered c; no collision",
				"claude-code":           "renamed mcp__a__b__c, dropped mcp__a__b__c; separator ambiguity: winner a/0",
				"codex":                 "renamed mcp__a__b__c, dropped mcp__a__b__c; separator ambiguity: winner a/0",
				"gemini-cli":            "renamed mcp_a_b__c, renamed mcp_a__b_c; no collision",
				"vscode":                "renamed mcp_a_b__c, renamed mcp_a__b_c; no collision",
				"openai-agents":         "registered b__c, registered c; no collision",
			},
		},
		{
			config: "prefix re-use",
			want: map[string]string{
				"lionagi-legacy":        "registered y, dropped y; same wire name: winner mcp_x/0",
				"lionagi-legacy-update": "displaced y, registered y; same wire name: winner x/0",
				"lionagi":               "renamed mcp__mcp_x__y, renamed mcp__x__y; no collision",
				"qwen":                  "renamed mcp__mcp_x__y, renamed mcp__x__y; no collision",
				"symfonic":              "renamed mcp_x.y, renamed x.y; no collision",
				"claude-code":           "renamed mcp__mcp_x__y, renamed mcp__x__y; no collision",
				"codex":                 "renamed mcp__mcp_x__y, renamed mcp__x__y; no collision",
				"gemini-cli":            "displaced mcp_x_y, renamed mcp_x_y; prefix re-use: winner x/0",
				"vscode":                "renamed mcp_mcp_x_y, renamed mcp_x_y; no collision",
				"openai-agents":         "dropped y, dropped y; same wire name: winner none",
			},
		},
		{
			config: "truncation: first 30 and last 30",
			want: map[string]string{
				"lionagi-legacy":        "registered EXPORT, dropped EXPORT; same wire name: winner R-eu/0",
				"lionagi-legacy-update": "displaced EXPORT, registered EXPORT; same wire name: winner R-us/0",
				"lionagi":               "dropped mcp__R-eu__EXPORT, dropped mcp__R-us__EXPORT; no collision",
				"qwen":                  "renamed mcp__R-eu__export_quarterly_r_1tftmtj, renamed mcp__R-us__export_quarterly_r_1fj4345; no collision",
				"symfonic":              "renamed R-eu.EXPORT, renamed R-us.EXPORT; no collision",
				"claude-code":           "renamed mcp__R-eu__EXPORT, renamed mcp__R-us__EXPORT; no collision",
				"codex":                 "renamed mcp__analytics-warehousefc75e325eb70491b9d2d072e1e160bd05eec0b1c, renamed mcp__analytics-warehouse7df8f2c2bf26ce4bdceaac97fa49cba13ddfc9c0; no collision",
				"gemini-cli":            "displaced mcp_analytics-warehouse-primar...uarterly_revenue_report_as_csv, renamed mcp_analytics-warehouse-primar...uarterly_revenue_report_as_csv; truncation: winner R-us/0",
				"vscode":                "renamed mcp_analytics-war_EXPORT, renamed mcp_analytics-wa2_EXPORT; no collision",
				"openai-agents":         "dropped EXPORT, dropped EXPORT; same wire name: winner none",
			},
		},
		{
			config: "truncation: first 64",
			want: map[string]string{
				"lionagi-legacy":        "registered SEARCH_sections, registered SEARCH_summaries; no collision",
				"lionagi-legacy-update": "registered SEARCH_sections, registered SEARCH_summaries; no collision",
				"lionagi":               "dropped mcp__docs__SEARCH_sections, dropped mcp__docs__SEARCH_summaries; no collision",
				"qwen":                  "renamed mcp__docs__search_indexed_documentation_pages_and_retur_1pm621e, renamed mcp__docs__search_indexed_documentation_pages_and_retur_19lj8y6; no collision",
				"symfonic":              "registered SEARCH_sections, registered SEARCH_summaries; no collision",
				"claude-code":           "renamed mcp__docs__SEARCH_sections, renamed mcp__docs__SEARCH_summaries; no collision",
				"codex":                 "renamed mcp__docs__search_indexe5ddda0d5050a1bf3faf17c438e21b18a7c2d562b, renamed mcp__docs__search_indexe42e30e056e58bb5325c9a169564b1666ba3f975d; no collision",
				"gemini-cli":            "renamed mcp_docs_search_indexed_docume...d_return_the_matching_sections, renamed mcp_docs_search_indexed_docume..._return_the_matching_summaries; no collision",
				"vscode":                "renamed mcp_docs_search_indexed_documentation_pages_and_return_the_match, dropped mcp_docs_search_indexed_documentation_pages_and_return_the_match; truncation: winner docs/0",
				"openai-agents":         "registered SEARCH_sections, registered SEARCH_summaries; no collision",
			},
		},
		{
			config: "duplicate in one server",
			want: map[string]string{
				"lionagi-legacy":        "registered request, registered ping, dropped request; duplicate in one server: winner alpha/0",
				"lionagi-legacy-update": "displaced request, registered ping, registered request; duplicate in one server: winner alpha/2",
				"lionagi":               "renamed mcp__alpha__request, renamed mcp__alpha__ping, dropped mcp__alpha__request; duplicate in one server: winner alpha/0",
				"qwen":                  "displaced mcp__alpha__request, renamed mcp__alpha__ping, renamed mcp__alpha__request; duplicate in one server: winner alpha/2",
				"symfonic":              "registered request, registered ping, dropped request; duplicate in one server: winner alpha/0",
				"claude-code":           "renamed mcp__alpha__request, renamed mcp__alpha__ping, dropped mcp__alpha__request; duplicate in one server: winner alpha/0",
				"codex":                 "renamed mcp__alpha__request, renamed mcp__alpha__ping, dropped mcp__alpha__request; duplicate in one server: winner alpha/0",
				"gemini-cli":            "displaced mcp_alpha_request, renamed mcp_alpha_ping, renamed mcp_alpha_request; duplicate in one server: winner alpha/2",
				"vscode":                "renamed mcp_alpha_request, renamed mcp_alpha_ping, dropped mcp_alpha_request; duplicate in one server: winner alpha/0",
				"openai-agents":         "dropped request, dropped ping, dropped request; duplicate in one server: winner none",
			},
		},
	}
	configs := make(map[string]classConfig)
	for _, c := range classConfigs() {
		configs[c.name] = c
	}
	for _, tt := range tests {
		c, ok := configs[tt.config]
		if !ok {
			t.Fatalf("no config %q", tt.config)
		}
		for _, p := range Policies() {
			want, ok := tt.want[p.Name]
			if !ok {
				t.Errorf("%s: no expectation for policy %s", tt.config, p.Name)
				continue
			}
			if got := c.short.Replace(renderClass(p.Apply(c.cats))); got != want {
				t.Errorf("%s under %s:\n got %s\nwant %s", tt.config, p.Name, got, want)
			}
		}
	}
}

func TestCollisionsDetails(t *testing.T) {
	t.Run("order and rows", func(t *testing.T) {
		reg := mustPolicy("lionagi-legacy").Apply([]Catalogue{catalogue("alpha", "x", "y"), catalogue("beta", "y", "x", "z")})
		cs := reg.Collisions()
		if len(cs) != 2 || cs[0].Name != "x" || cs[1].Name != "y" {
			t.Fatalf("Collisions() = %+v, want x then y, in the order first claimed", cs)
		}
		if r := cs[1].Rows; len(r) != 2 || r[0].Server != "alpha" || r[0].Index != 1 || r[1].Server != "beta" || r[1].Index != 0 {
			t.Errorf("y rows = %+v, want alpha row 1 then beta row 0", r)
		}
		if cs[1].Winner != 0 || cs[1].Class != CollisionSameWire {
			t.Errorf("y winner %d class %v, want 0, same wire name", cs[1].Winner, cs[1].Class)
		}
	})
	t.Run("other", func(t *testing.T) {
		// symfonic qualifies with '.', so a + b.c and a.b + c meet, which no
		// named rule describes.
		reg := mustPolicy("symfonic").Apply([]Catalogue{
			catalogue("a", "b.c"), catalogue("z", "b.c"), catalogue("a.b", "c"), catalogue("q", "c"),
		})
		cs := reg.Collisions()
		if len(cs) != 1 || cs[0].Name != "a.b.c" || cs[0].Class != CollisionOther || cs[0].Winner != 0 {
			t.Errorf("Collisions() = %+v, want a.b.c, other, won by a", cs)
		}
	})
	t.Run("withheld rows have no winner", func(t *testing.T) {
		reg := mustPolicy("lionagi").Apply([]Catalogue{catalogue("alpha", "request", "bad name", "request")})
		cs := reg.Collisions()
		if len(cs) != 1 || cs[0].Winner != -1 || cs[0].Class != CollisionDuplicate {
			t.Errorf("Collisions() = %+v, want one duplicate with no winner (the server failed)", cs)
		}
	})
	t.Run("nil registry", func(t *testing.T) {
		var reg *Registry
		if cs := reg.Collisions(); cs != nil {
			t.Errorf("nil Registry Collisions() = %v, want nil", cs)
		}
	})
	for c, want := range map[CollisionClass]string{
		CollisionSameWire: "same wire name", CollisionLabelsAlike: "labels sanitize alike",
		CollisionSeparator: "separator ambiguity", CollisionPrefixReuse: "prefix re-use",
		CollisionTruncation: "truncation", CollisionDuplicate: "duplicate in one server",
		CollisionOther: "other", 42: "CollisionClass(42)",
	} {
		if got := c.String(); got != want {
			t.Errorf("CollisionClass(%d).String() = %q, want %q", int(c), got, want)
		}
	}
}
