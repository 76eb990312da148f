package model

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func TestFNV1a(t *testing.T) {
	tests := []struct {
		in     string
		want   uint32
		base36 string
	}{
		{"", 0x811c9dc5, "0ztntfp"},
		{"a", 0xe40c292c, "1r9wi7g"},
		{"mcp__foo.bar__evil", 0xdb9fead8, "1oxrpi0"},
		// Two code units, folded in one at a time: not the rune, not UTF-8.
		{"\U0001F600", 0xcb31c4b8, "1kdnhdk"},
	}
	for _, tt := range tests {
		h := fnv1a(utf16.Encode([]rune(tt.in)))
		if h != tt.want {
			t.Errorf("fnv1a(%q) = %#x, want %#x", tt.in, h, tt.want)
		}
		if got := base36Pad(h, qwenHashLen); got != tt.base36 {
			t.Errorf("base36Pad(fnv1a(%q)) = %q, want %q", tt.in, got, tt.base36)
		}
	}
}

func TestQwenName(t *testing.T) {
	long := "mcp__srv__" + strings.Repeat("x", 70)
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"valid kept byte for byte", "mcp__alpha__request", "mcp__alpha__request"},
		{"valid at 63 kept", "mcp__s__" + strings.Repeat("y", 55), "mcp__s__" + strings.Repeat("y", 55)},
		{"dot", "mcp__foo.bar__evil", "mcp__foo_bar__evil_1oxrpi0"},
		{"seed case", "mcp__zybio__literature.search_pubmed", "mcp__zybio__literature_search_pubmed_0bhdeaz"},
		{"e acute is one unit", "mcp__s__caf\u00e9", "mcp__s__caf__0bl6y5p"},
		{"emoji is two units", "mcp__s__go\U0001F600", "mcp__s__go___17yjmdb"},
		{"long cut to 63", long, "mcp__srv__" + strings.Repeat("x", 45) + "_18kdmn8"},
		{"digit first", "1abc", "tool_1abc_1svb39w"},
		{"empty", "", "tool__0ztntfp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := QwenName(tt.in)
			if got != tt.want {
				t.Errorf("QwenName(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n := len(utf16.Encode([]rune(got))); n > qwenMaxLen {
				t.Errorf("QwenName(%q) is %d UTF-16 units, want <= %d", tt.in, n, qwenMaxLen)
			}
			if again := QwenName(got); again != got {
				t.Errorf("QwenName(%q) = %q, want it unchanged (idempotent)", got, again)
			}
		})
	}
}

func TestQwenNameStable(t *testing.T) {
	// Names that sanitize alike must not end alike: the hash is of the
	// original, so foo.bar and foo_bar stay apart.
	a, b := QwenName("mcp__foo.bar__evil"), QwenName("mcp__foo_bar__evil")
	if a == b {
		t.Errorf("QwenName(%q) = QwenName(%q) = %q, want them distinct", "mcp__foo.bar__evil", "mcp__foo_bar__evil", a)
	}
	for _, in := range []string{"mcp__foo.bar__evil", "mcp__s__caf\u00e9", strings.Repeat("é", 100)} {
		if x, y := QwenName(in), QwenName(in); x != y {
			t.Errorf("QwenName(%q) = %q then %q, want stable", in, x, y)
		}
	}
}

func TestQwenPolicy(t *testing.T) {
	p := mustPolicy("qwen")
	tests := []struct {
		name   string
		cats   []Catalogue
		routes string
		check  func(t *testing.T, reg *Registry)
	}{
		{
			name:   "same tool on two servers",
			cats:   []Catalogue{catalogue("alpha", "request"), catalogue("beta", "request")},
			routes: "mcp__alpha__request->alpha/request mcp__beta__request->beta/request",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "beta", 0)
				if o.Kind != Renamed || o.Alias != "mcp__beta__request" || o.Reason != "" {
					t.Errorf("beta row = %v alias %q reason %q, want renamed, alias mcp__beta__request, no reason", o.Kind, o.Alias, o.Reason)
				}
			},
		},
		{
			name:   "labels that sanitize alike do not collide",
			cats:   []Catalogue{catalogue("foo.bar", "evil"), catalogue("foo_bar", "evil")},
			routes: "mcp__foo_bar__evil_1oxrpi0->foo.bar/evil mcp__foo_bar__evil->foo_bar/evil",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "foo.bar", 0)
				if o.Alias != "mcp__foo.bar__evil" || !strings.Contains(o.Reason, `'.' is outside`) {
					t.Errorf("foo.bar row alias %q reason %q, want the raw alias and a reason naming '.'", o.Alias, o.Reason)
				}
			},
		},
		{
			name:   "seed case gets a hash",
			cats:   []Catalogue{catalogue("zybio", "literature.search_pubmed")},
			routes: "mcp__zybio__literature_search_pubmed_0bhdeaz->zybio/literature.search_pubmed",
		},
		{
			name:   "remaining collision: last wins",
			cats:   []Catalogue{catalogue("alpha", "request", "request")},
			routes: "mcp__alpha__request->alpha/request",
			check: func(t *testing.T, reg *Registry) {
				first, last := outcomeOf(reg, "alpha", 0), outcomeOf(reg, "alpha", 1)
				want := "overwritten by alpha; calls to mcp__alpha__request now go to alpha"
				if first.Kind != Displaced || first.By != "alpha" || first.Reason != want {
					t.Errorf("row 0 = %v by %q (%q), want displaced by alpha (%q)", first.Kind, first.By, first.Reason, want)
				}
				if first.Alias != "mcp__alpha__request" {
					t.Errorf("displaced row alias = %q, want mcp__alpha__request", first.Alias)
				}
				if rt, _ := reg.Lookup("mcp__alpha__request"); rt.Index != 1 || !last.Live() {
					t.Errorf("route index = %d, row 1 live = %v, want the last row routed", rt.Index, last.Live())
				}
			},
		},
		{
			name:   "row without a name",
			cats:   []Catalogue{withRow(catalogue("alpha", "ok"), Tool{NameProblem: "empty name"})},
			routes: "mcp__alpha__ok->alpha/ok",
			check: func(t *testing.T, reg *Registry) {
				if o := outcomeOf(reg, "alpha", 1); o.Kind != Dropped || o.Reason != "row has no usable name: empty name" {
					t.Errorf("row 1 = %v (%q), want dropped for its empty name", o.Kind, o.Reason)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := p.Apply(tt.cats)
			if got := routes(reg); got != tt.routes {
				t.Errorf("Apply(%s) routes = %q, want %q", tt.name, got, tt.routes)
			}
			if tt.check != nil {
				tt.check(t, reg)
			}
		})
	}
}
