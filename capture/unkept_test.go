package capture_test

import (
	"fmt"
	"testing"

	"github.com/mcplens/mcplens/capture"
)

func TestFeedDropped(t *testing.T) {
	tests := []struct {
		name, line string
		want       int
	}{
		{"notice", `{"t":"2026-12-01T10:00:00Z","feedDropped":42}`, 42},
		{"frame", `{"t":"2026-12-01T10:00:00Z","server":"a","dir":"s2c","frame":{"feedDropped":99}}`, 0},
		{"text", `{"t":"2026-12-01T10:00:00Z","server":"a","dir":"s2c","text":"\"feedDropped\":7"}`, 0},
		{"negative", `{"feedDropped":-5}`, 0},
		{"not JSON", `"feedDropped":5`, 0},
		{"too large", `{"feedDropped":1e30}`, 0},
	}
	for _, tt := range tests {
		if got := capture.FeedDropped([]byte(tt.line)); got != tt.want {
			t.Errorf("%s: FeedDropped(%q) = %d, want %d", tt.name, tt.line, got, tt.want)
		}
	}
}

func ExampleUnkept() {
	fmt.Printf("%q\n", capture.Unkept{})
	fmt.Println(capture.Unkept{Lines: 42, Calls: 2500})
	// Output:
	// ""
	// not shown: 42 feed lines not received, 2500 older calls let go
}
