package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Unkept counts what a backend knows it could not show of what the taps
// passed, so that a missing call is never missing silently.
type Unkept struct {
	// Lines are feed lines a reader did not get: it connected after the
	// tap's feed had let them go, or read too slowly (feedDropped).
	Lines int
	// Chunks are chunks of bytes a tap left out of its copy (dropped).
	Chunks int
	// Calls are the oldest calls let go past the bound a backend keeps.
	Calls int
}

// String says what was not kept, "" for nothing: "not shown: 42 feed
// lines not received, 3 chunks left out of the tap's copy".
func (u Unkept) String() string {
	var parts []string
	if u.Lines > 0 {
		parts = append(parts, fmt.Sprintf("%d feed lines not received", u.Lines))
	}
	if u.Chunks > 0 {
		parts = append(parts, fmt.Sprintf("%d chunks left out of the tap's copy", u.Chunks))
	}
	if u.Calls > 0 {
		parts = append(parts, fmt.Sprintf("%d older calls let go", u.Calls))
	}
	if len(parts) == 0 {
		return ""
	}
	return "not shown: " + strings.Join(parts, ", ")
}

// FeedDropped returns N for a feed's {"t":...,"feedDropped":N} notice,
// 0 for any other line. Only the line's own member counts: a frame that
// holds the words is not a notice.
func FeedDropped(line []byte) int {
	if !bytes.Contains(line, []byte(`"feedDropped"`)) {
		return 0
	}
	var n struct {
		FeedDropped int `json:"feedDropped"`
	}
	if json.Unmarshal(line, &n) != nil || n.FeedDropped < 0 {
		return 0
	}
	return n.FeedDropped
}
