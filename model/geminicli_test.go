package model

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func TestGeminiName(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, in, want string
	}{
		// The two expectations of gemini-cli's own tests.
		{"upstream: 80 x", x(80), "mcp_" + x(26) + "..." + x(30)},
		{"upstream: spaces", "invalid-name with spaces", "mcp_invalid-name_with_spaces"},
		{"prefix added", "alpha_request", "mcp_alpha_request"},
		{"prefix kept, checked before sanitizing", "mcp_x_y", "mcp_x_y"},
		{"prefix check is case-sensitive", "MCP_x_y", "mcp_MCP_x_y"},
		{"dot and colon kept", "a.b:c_d", "mcp_a.b:c_d"},
		{"e acute is one unit", "s_caf\u00e9", "mcp_s_caf_"},
		{"emoji is two units", "s_go\U0001F600", "mcp_s_go__"},
		{"63 kept", x(59), "mcp_" + x(59)},
		{"64 cut", "a" + x(58) + "b", "mcp_a" + x(25) + "..." + x(29) + "b"},
	}
	for _, tt := range tests {
		got := GeminiName(tt.in)
		if got != tt.want {
			t.Errorf("%s: GeminiName(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
		if n := len(utf16.Encode([]rune(got))); n > geminiMaxLen {
			t.Errorf("%s: GeminiName(%q) is %d units, want <= %d", tt.name, tt.in, n, geminiMaxLen)
		}
	}
}

// The upstream expectations are on gemini-cli's name function, which the
// policy applies to server + "_" + tool. The joined name always holds a '_',
// so no server and tool give exactly 80 x; a 40 x server and a 39 x tool
// give the same 80-character shape and the same name. The spaces case is
// server invalid-name with tool "with spaces".

// The upstream expectations are on gemini-cli's name function, which the
// policy applies to server + "_" + tool. The joined name always holds a '_',
// so no server and tool give exactly 80 x; a 40 x server and a 39 x tool
// give the same 80-character shape and the same name. The spaces case is
// server invalid-name with tool "with spaces".
func TestGeminiNameThroughThePolicy(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		server, tool, want string
	}{
		{x(40), x(39), "mcp_" + x(26) + "..." + x(30)},
		{x(26), x(53), "mcp_" + x(26) + "..." + x(30)},
		{"invalid-name", "with spaces", "mcp_invalid-name_with_spaces"},
	}
	for _, tt := range tests {
		reg := mustPolicy("gemini-cli").Apply([]Catalogue{catalogue(tt.server, tt.tool)})
		if o := reg.Servers[0].Outcomes[0]; o.Name != tt.want || o.Kind != Renamed {
			t.Errorf("gemini-cli(%q, %q) = %v %q, want renamed %q", tt.server, tt.tool, o.Kind, o.Name, tt.want)
		}
	}
}

func TestGeminiCLIPolicy(t *testing.T) {
	p := mustPolicy("gemini-cli")
	head, tail := strings.Repeat("p", 30), strings.Repeat("q", 30)
	tests := []struct {
		name   string
		cats   []Catalogue
		routes string
		check  func(t *testing.T, reg *Registry)
	}{
		{
			name:   "prefix re-use: the last declared overwrites",
			cats:   []Catalogue{catalogue("mcp_x", "y"), catalogue("x", "y")},
			routes: "mcp_x_y->x/y",
			check: func(t *testing.T, reg *Registry) {
				o := outcomeOf(reg, "mcp_x", 0)
				want := "overwritten by x; calls to mcp_x_y now go to x"
				if o.Kind != Displaced || o.By != "x" || o.Reason != want {
					t.Errorf("mcp_x row = %v by %q (%q), want displaced by x (%q)", o.Kind, o.By, o.Reason, want)
				}
			},
		},
		{
			name:   "a label with '_' gets a note",
			cats:   []Catalogue{catalogue("my_server", "t"), catalogue("alpha", "t")},
			routes: "mcp_my_server_t->my_server/t mcp_alpha_t->alpha/t",
			check: func(t *testing.T, reg *Registry) {
				if s, _ := reg.Server("my_server"); len(s.Notes) != 1 || !strings.Contains(s.Notes[0], `label "my_server" contains '_'`) {
					t.Errorf("my_server notes = %q, want the '_' note", s.Notes)
				}
				if s, _ := reg.Server("alpha"); len(s.Notes) != 0 {
					t.Errorf("alpha notes = %q, want none", s.Notes)
				}
			},
		},
		{
			name:   "names cut around ... collide: last wins",
			cats:   []Catalogue{catalogue("s", head+"a"+tail, head+"b"+tail)},
			routes: "mcp_s_" + head[:24] + "..." + tail + "->s/" + head + "b" + tail,
			check: func(t *testing.T, reg *Registry) {
				first := outcomeOf(reg, "s", 0)
				if first.Kind != Displaced || first.Untruncated != "mcp_s_"+head+"a"+tail {
					t.Errorf("row 0 = %v, untruncated %q", first.Kind, first.Untruncated)
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
