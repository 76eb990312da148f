package loader

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

func TestTapReaderSplitsLines(t *testing.T) {
	w := newFrameLog("a")
	stream := "banner line\r\n" +
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n\n" +
		`log: no newline here{"jsonrpc":"2.0","id":2,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"result":{}} trailing words` + "\n" +
		`{"a":1}{"b":2}` + "\n" +
		`{{{ not json {"jsonrpc":"2.0","id":4,"result":{"x":"{"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"x"}` // no newline before end of file
	// One byte per read: lines must not depend on how reads fall.
	r := newTapReader(iotest.OneByteReader(strings.NewReader(stream)), w, DefaultLimits.Line)
	got, err := io.ReadAll(r)
	wantOut := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"result":{}}` + "\n" +
		`{"a":1}` + "\n" + `{"b":2}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"result":{"x":"{"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"x"}` + "\n"
	if err != nil || string(got) != wantOut {
		t.Fatalf("ReadAll = %q, %v;\nwant %q: only the JSON, one message a line", got, err, wantOut)
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
		{"log: no newline here", true},
		{`{"jsonrpc":"2.0","id":2,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, false},
		{" trailing words", true},
		{`{"a":1}`, false},
		{`{"b":2}`, false},
		{"{{{ not json ", true},
		{`{"jsonrpc":"2.0","id":4,"result":{"x":"{"}}`, false},
		{`{"jsonrpc":"2.0","method":"x"}`, false},
	}
	frames := w.Frames()
	if len(frames) != len(want) {
		t.Fatalf("frames %d, want %d: %+v", len(frames), len(want), frames)
	}
	for i, f := range frames {
		if string(f.Bytes) != want[i].line || f.Junk != want[i].junk || f.Dir != mcpsession.In {
			t.Errorf("frame %d = %q junk=%v dir=%s, want %q junk=%v in", i, f.Bytes, f.Junk, f.Dir, want[i].line, want[i].junk)
		}
	}
}

func TestTapReaderBoundsSalvage(t *testing.T) {
	// A long line of unterminated objects: each '{' tried would scan to
	// the end of the line. Only a few are tried.
	line := strings.Repeat(`{"x":`, 200000) + "\n"
	w := newFrameLog("a")
	type read struct {
		got []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		got, err := io.ReadAll(newTapReader(strings.NewReader(line), w, DefaultLimits.Line))
		done <- read{got, err}
	}()
	// Every '{' tried would take hours; the few tried take milliseconds
	// (BenchmarkTapReaderJunkLine). The deadline only catches the hours.
	var r read
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("a %d-byte junk line still being read after a minute", len(line))
	}
	if r.err != nil || len(r.got) != 0 {
		t.Fatalf("ReadAll = %d bytes, %v; want nothing for the protocol", len(r.got), r.err)
	}
	if f := w.Frames(); len(f) != 1 || !f[0].Junk || f[0].Size != len(line)-1 {
		t.Errorf("frames %d, want the line as one junk frame of %d bytes", len(f), len(line)-1)
	}
}

// TestTapReaderAbandonsLongLines: a line over the limit never reaches the
// protocol, which reads the lines before it and then the *LimitError; the
// FrameLog keeps its start, marked; nothing after it is read. A line of
// exactly the limit passes whole.
func TestTapReaderAbandonsLongLines(t *testing.T) {
	const limit = 1 << 20
	fits := `{"jsonrpc":"2.0","id":1,"result":{"t":"` + strings.Repeat("x", limit-42) + `"}}`
	if len(fits) != limit {
		t.Fatalf("test line of %d bytes, want %d", len(fits), limit)
	}
	long := `{"jsonrpc":"2.0","id":2,"result":{"t":"` + strings.Repeat("y", 3*limit) + `"}}`
	after := `{"jsonrpc":"2.0","id":3,"result":{}}`
	src := &countingReader{r: strings.NewReader(fits + "\n" + long + "\n" + after + "\n")}
	w := newFrameLog("a")
	var over *LimitError
	tap := newTapReader(src, observers{w, observerFunc(func(f *frameInfo) {
		if f.over != nil {
			over = f.over
		}
	})}, limit)
	got, err := io.ReadAll(tap)
	if string(got) != fits+"\n" {
		t.Errorf("the protocol read %d bytes, want only the first line's %d", len(got), len(fits)+1)
	}
	var lerr *LimitError
	if !errors.As(err, &lerr) || lerr.Limit != "line" || over != lerr || tap.overLimit() != lerr {
		t.Fatalf("ReadAll error %v (told %v), want the line's *LimitError", err, over)
	}
	if want := "a line of stdout is over the 1MiB line limit; raise it with --limit line=SIZE or MCPLENS_LIMIT_LINE"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if src.n > 2*limit+tapReadSize {
		t.Errorf("read %d bytes of the stream, want reading to stop at the limit", src.n)
	}
	select {
	case <-tap.eof:
	default:
		t.Errorf("eof not signalled")
	}
	f := w.Frames()
	if len(f) != 2 || f[1].Size <= limit || len(f[1].Bytes) != mcpsession.MaxFrameBytes || !strings.HasPrefix(string(f[1].Bytes), `{"jsonrpc":"2.0","id":2,`) ||
		!strings.Contains(f[1].Problem, "over the 1MiB line limit") {
		t.Errorf("frames %d, the last %q... (%d bytes of %d, %q); want the long line's start, marked", len(f), f[len(f)-1].Bytes[:40], len(f[len(f)-1].Bytes), f[len(f)-1].Size, f[len(f)-1].Problem)
	}
}

// A countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestTapWriterRecordsBeforeWriting(t *testing.T) {
	w := newFrameLog("a")
	var sink bytes.Buffer
	tw := newTapWriter(nopCloser{&sink}, w)
	tw.Write([]byte(`{"id":1,`))
	if w.Len() != 0 {
		t.Errorf("a partial line was recorded")
	}
	tw.Write([]byte("\"method\":\"m\"}\n{\"id\":2}\n"))
	frames := w.Frames()
	if len(frames) != 2 || string(frames[0].Bytes) != `{"id":1,"method":"m"}` || frames[1].Dir != mcpsession.Out || frames[0].Junk {
		t.Errorf("frames %+v, want the two lines, out", frames)
	}
	if sink.String() != "{\"id\":1,\"method\":\"m\"}\n{\"id\":2}\n" {
		t.Errorf("written %q, want the bytes unchanged", sink.String())
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// BenchmarkTapReaderJunkLine measures the salvage of a 1 MB line of
// unterminated objects, where only a few '{' are tried.
func BenchmarkTapReaderJunkLine(b *testing.B) {
	line := strings.Repeat(`{"x":`, 200000) + "\n"
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := io.Copy(io.Discard, newTapReader(strings.NewReader(line), newFrameLog("a"), DefaultLimits.Line)); err != nil {
			b.Fatal(err)
		}
	}
}
