package loader

import (
	"testing"
	"time"
)

// TestTaskPoll: the server's poll interval is kept within [MinPoll,
// MaxPoll], in either generation's field; none is DefaultPoll.
func TestTaskPoll(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		name string
		t    taskState
		want time.Duration
	}{
		{"none", taskState{}, DefaultPoll},
		{"zero", taskState{PollInterval: ms(0)}, MinPoll},
		{"negative", taskState{PollMs: ms(-5)}, MinPoll},
		{"huge", taskState{PollInterval: ms(1e15)}, MaxPoll},
		{"in bounds", taskState{PollMs: ms(750)}, 750 * time.Millisecond},
		{"2025 field first", taskState{PollInterval: ms(300), PollMs: ms(900)}, 300 * time.Millisecond},
	} {
		if got := tt.t.poll(); got != tt.want {
			t.Errorf("%s: poll = %v, want %v", tt.name, got, tt.want)
		}
	}
}
