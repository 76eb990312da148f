package loader

import (
	"bytes"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

func TestFrameLogKeepsLastFrames(t *testing.T) {
	w := newFrameLog("a")
	for i := range mcpsession.MaxFrames + 10 {
		record(w, mcpsession.Out, []byte{byte('0' + i%10)}, 1, frameUnchecked)
	}
	if got, want := w.Len(), mcpsession.MaxFrames+10; got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}
	frames := w.Frames()
	if len(frames) != mcpsession.MaxFrames {
		t.Fatalf("len(Frames()) = %d, want %d", len(frames), mcpsession.MaxFrames)
	}
	// Frame 10 (the oldest kept) is "0", then "1", ...
	for i, f := range frames[:3] {
		if want := string(rune('0' + i)); string(f.Bytes) != want || f.Server != "a" {
			t.Errorf("Frames()[%d] = %s %q, want a %q", i, f.Server, f.Bytes, want)
		}
	}
	if last := frames[len(frames)-1]; string(last.Bytes) != "9" {
		t.Errorf("newest frame %q, want %q", last.Bytes, "9")
	}
}

func TestFrameLogCutsLongFrames(t *testing.T) {
	w := newFrameLog("a")
	var whole []byte
	watch := observerFunc(func(f *frameInfo) { whole = bytes.Clone(f.line) })
	long := bytes.Repeat([]byte("x"), mcpsession.MaxFrameBytes+5)
	record(observers{w, watch}, mcpsession.In, long, len(long), frameUnchecked)
	f := w.Frames()[0]
	if len(f.Bytes) != mcpsession.MaxFrameBytes || f.Size != len(long) || !f.Truncated() {
		t.Errorf("frame kept %d of %d bytes (truncated %v), want %d of %d", len(f.Bytes), f.Size, f.Truncated(), mcpsession.MaxFrameBytes, len(long))
	}
	if len(whole) != len(long) {
		t.Errorf("an observer after the log saw %d bytes, want the whole %d", len(whole), len(long))
	}
}

// observers is a conn for tests: it hands each frame to each of them, in
// order.
type observers []observer

func (os observers) frame(f *frameInfo) {
	for _, o := range os {
		o.frame(f)
	}
}

// An observerFunc is a function observing frames.
type observerFunc func(f *frameInfo)

func (fn observerFunc) frame(f *frameInfo) { fn(f) }

// checkLine returns what the monitor says of one line.
func (m *monitor) checkLine(dir mcpsession.Direction, line []byte, junk, valid bool) string {
	kind := frameJSON
	switch {
	case junk:
		kind = frameJunk
	case !valid:
		kind = frameUnchecked
	}
	return record(m, dir, line, len(line), kind).problem
}
