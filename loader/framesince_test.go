package loader

import (
	"fmt"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

func TestFrameLogSince(t *testing.T) {
	l := newFrameLog("s")
	add := func(n int) {
		for range n {
			l.frame(&frameInfo{dir: mcpsession.In, line: fmt.Appendf(nil, "%d", l.Len()), size: 1})
		}
	}
	add(3)
	frames, total, lost := l.Since(1)
	if len(frames) != 2 || total != 3 || lost != 0 || string(frames[0].Bytes) != "1" {
		t.Errorf("Since(1) of 3 = %d frames (first %q), total %d, lost %d; want 2 from \"1\", 3, 0", len(frames), frames[0].Bytes, total, lost)
	}
	add(mcpsession.MaxFrames + 5)
	frames, total, lost = l.Since(total)
	if len(frames) != mcpsession.MaxFrames || total != mcpsession.MaxFrames+8 || lost != 5 || string(frames[0].Bytes) != "8" {
		t.Errorf("Since after a wrap = %d frames (first %q), total %d, lost %d; want %d from \"8\", %d, 5", len(frames), frames[0].Bytes, total, lost, mcpsession.MaxFrames, mcpsession.MaxFrames+8)
	}
	if frames, _, _ := l.Since(total); len(frames) != 0 {
		t.Errorf("Since(total) = %d frames, want none", len(frames))
	}
}
