package loader

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestWireKeepsLastFrames(t *testing.T) {
	w := newWire("a", nil)
	for i := range MaxFrames + 10 {
		w.record(Out, []byte{byte('0' + i%10)})
	}
	if got, want := w.Len(), MaxFrames+10; got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}
	frames := w.Frames()
	if len(frames) != MaxFrames {
		t.Fatalf("len(Frames()) = %d, want %d", len(frames), MaxFrames)
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

func TestWireCutsLongFrames(t *testing.T) {
	w := newWire("a", nil)
	var whole []byte
	w.setWatch(func(_ Direction, line []byte) { whole = bytes.Clone(line) })
	long := bytes.Repeat([]byte("x"), MaxFrameBytes+5)
	w.record(In, long)
	f := w.Frames()[0]
	if len(f.Bytes) != MaxFrameBytes || f.Size != len(long) || !f.Truncated() {
		t.Errorf("frame kept %d of %d bytes (truncated %v), want %d of %d", len(f.Bytes), f.Size, f.Truncated(), MaxFrameBytes, len(long))
	}
	if len(whole) != len(long) {
		t.Errorf("watch saw %d bytes, want the whole %d", len(whole), len(long))
	}
}

func TestTapReaderSplitsLines(t *testing.T) {
	w := newWire("a", nil)
	stream := "banner line\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"
	// One byte per read: lines must not depend on how reads fall.
	r := newTapReader(iotest.OneByteReader(strings.NewReader(stream)), w)
	got, err := io.ReadAll(r)
	if err != nil || string(got) != stream {
		t.Fatalf("ReadAll = %q, %v; want the stream unchanged", got, err)
	}
	select {
	case <-r.eof:
	default:
		t.Errorf("eof not signalled")
	}
	want := []struct {
		line string
		junk bool
	}{
		{"banner line", true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},
		{"", true},
		{`{"jsonrpc":"2.0","method":"x"}`, false}, // no newline before end of file
	}
	frames := w.Frames()
	if len(frames) != len(want) {
		t.Fatalf("frames %d, want %d: %+v", len(frames), len(want), frames)
	}
	for i, f := range frames {
		if string(f.Bytes) != want[i].line || f.Junk != want[i].junk || f.Dir != In {
			t.Errorf("frame %d = %q junk=%v dir=%s, want %q junk=%v in", i, f.Bytes, f.Junk, f.Dir, want[i].line, want[i].junk)
		}
	}
}

func TestTapWriterRecordsBeforeWriting(t *testing.T) {
	w := newWire("a", nil)
	var sink bytes.Buffer
	tw := newTapWriter(nopCloser{&sink}, w)
	tw.Write([]byte(`{"id":1,`))
	if w.Len() != 0 {
		t.Errorf("a partial line was recorded")
	}
	tw.Write([]byte("\"method\":\"m\"}\n{\"id\":2}\n"))
	frames := w.Frames()
	if len(frames) != 2 || string(frames[0].Bytes) != `{"id":1,"method":"m"}` || frames[1].Dir != Out || frames[0].Junk {
		t.Errorf("frames %+v, want the two lines, out", frames)
	}
	if sink.String() != "{\"id\":1,\"method\":\"m\"}\n{\"id\":2}\n" {
		t.Errorf("written %q, want the bytes unchanged", sink.String())
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func TestEventQueue(t *testing.T) {
	q := newEventQueue()
	// Nobody reads yet: far more state events than the channel holds.
	const n = 5 * eventBuffer
	for i := range n {
		q.push(Event{Server: "a", State: Ready, Err: string(rune('a' + i%26))})
		q.push(Event{Server: "a", Wire: true})
		q.push(Event{Server: "b", Wire: true})
	}
	q.close()
	q.push(Event{Server: "late", State: Failed}) // after close: dropped

	states, wires := 0, 0
	timeout := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-q.out:
			if !ok {
				if states != n {
					t.Errorf("state events %d, want all %d", states, n)
				}
				if wires > 2*eventBuffer+2 {
					t.Errorf("wire events %d, want them coalesced", wires)
				}
				return
			}
			if ev.Server == "late" {
				t.Errorf("event pushed after close was delivered")
			}
			if ev.Wire {
				wires++
			} else {
				states++
			}
		case <-timeout:
			t.Fatal("channel not closed")
		}
	}
}
