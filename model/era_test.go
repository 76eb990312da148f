package model_test

import (
	"fmt"
	"testing"

	"github.com/mcplens/mcplens/model"
)

func ExampleEraOf() {
	for _, v := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		e := model.EraOf(v)
		fmt.Printf("%s: discover %v, initialize %s, accepts %v\n", v, e.Discover, e.Initialize, e.Accepts)
	}
	// Output:
	// 2026-07-28: discover true, initialize 2025-11-25, accepts [2025-11-25 2025-06-18 2025-03-26 2024-11-05]
	// 2025-11-25: discover false, initialize 2025-11-25, accepts [2025-11-25 2025-06-18 2025-03-26 2024-11-05]
	// 2025-06-18: discover false, initialize 2025-06-18, accepts [2025-06-18 2025-03-26 2024-11-05]
}

func TestEraSettles(t *testing.T) {
	for _, tt := range []struct {
		name, ask, got string
		want           bool
	}{
		{"stateless answered by discover", "2026-07-28", "2026-07-28", true},
		{"stateless fell back", "2026-07-28", "2025-11-25", true},
		{"older answer taken", "2025-11-25", "2025-06-18", true},
		{"newer answer refused", "2025-06-18", "2025-11-25", false},
		{"handshake era never stateless", "2025-11-25", "2026-07-28", false},
		{"unknown old revision: only itself", "2024-01-01", "2024-01-01", true},
		{"unknown old revision: nothing else", "2024-01-01", "2025-11-25", false},
		{"future revision: stateless, negotiated down", "2099-01-01", "2026-07-28", true},
		{"future revision: falls back", "2099-01-01", "2025-11-25", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := model.EraOf(tt.ask).Settles(tt.got); got != tt.want {
				t.Errorf("EraOf(%q).Settles(%q) = %v, want %v", tt.ask, tt.got, got, tt.want)
			}
		})
	}
}

// TestProfilesSpeakAnEra: every profile asks for a revision of the eras'
// table, so its fallback rule is data, not a default.
func TestProfilesSpeakAnEra(t *testing.T) {
	known := map[string]bool{}
	for _, e := range model.Eras() {
		known[e.Version] = true
	}
	for _, c := range model.Clients() {
		if !known[c.Handshake.ProtocolVersion] {
			t.Errorf("%s asks for %q, which is not in model.Eras()", c.Key(), c.Handshake.ProtocolVersion)
		}
	}
}
