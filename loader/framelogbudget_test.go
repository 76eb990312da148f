package loader

import (
	"bytes"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

// TestFrameLogBytesBounded floods a FrameLog with the largest frames it
// keeps: what it holds stays within MaxLogBytes plus the cut old frames, the newest
// frames are kept whole, and every frame keeps its size and its start.
func TestFrameLogBytesBounded(t *testing.T) {
	w := newFrameLog("flood")
	line := bytes.Repeat([]byte("y"), mcpsession.MaxFrameBytes)
	for i := range mcpsession.MaxFrames + 500 {
		line[0] = byte('a' + i%26)
		record(w, mcpsession.In, line, len(line), frameUnchecked)
	}
	frames := w.Frames()
	held := 0
	for _, f := range frames {
		held += len(f.Bytes)
		if f.Size != mcpsession.MaxFrameBytes || len(f.Bytes) == 0 || f.Bytes[0] < 'a' || f.Bytes[0] > 'z' {
			t.Fatalf("frame of size %d holds %d bytes starting %q; want its size and its start", f.Size, len(f.Bytes), f.Bytes[:1])
		}
	}
	if limit := mcpsession.MaxLogBytes + mcpsession.MaxFrameBytes + mcpsession.MaxFrames*mcpsession.OldFrameBytes; held > limit {
		t.Errorf("the frame log holds %d bytes after a flood, want at most %d", held, limit)
	}
	if last := frames[len(frames)-1]; last.Truncated() {
		t.Errorf("the newest frame is cut to %d bytes; want it whole", len(last.Bytes))
	}
	if first := frames[0]; !first.Truncated() || len(first.Bytes) != mcpsession.OldFrameBytes {
		t.Errorf("the oldest frame holds %d bytes; want it cut to %d", len(first.Bytes), mcpsession.OldFrameBytes)
	}
	if got, want := len(frames), mcpsession.MaxFrames; got != want {
		t.Errorf("the frame log holds %d frames, want %d", got, want)
	}
}
