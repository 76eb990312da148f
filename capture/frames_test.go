package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

// TestReadKeepsFrames reads a recording of the demo server beta made by a
// real tap (testdata/recordings, record.sh), with a server's junk line
// and a frame the tap cut added: the frames are the recording's, at its
// times, each way; stderr is no frame; a decoder fed lines keeps none.
func TestReadKeepsFrames(t *testing.T) {
	data, err := os.ReadFile("../testdata/recordings/beta.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, `{"t":"2026-12-01T15:00:00Z","server":"beta","dir":"stderr","text":"listening"}
{"t":"2026-12-01T15:00:01Z","server":"beta","dir":"s2c","text":"banner: not JSON"}
{"t":"2026-12-01T15:00:02Z","server":"beta","dir":"s2c","text":"{\"jsonrpc\":\"2.0\",\"id\":9,","cut":300000}
`...)
	path := filepath.Join(t.TempDir(), "beta.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Read(ReadOptions{Frames: true}, path)
	if err != nil {
		t.Fatal(err)
	}
	if c.FrameLog("alpha") != nil {
		t.Error("a frame log of a server the recording does not hold")
	}
	frames := c.FrameLog("beta").Frames()
	if len(frames) != 9 {
		t.Fatalf("%d frames, want the 7 recorded and 2 added", len(frames))
	}
	first, last := frames[0], frames[8]
	if first.Dir != mcpsession.Out || !strings.Contains(string(first.Bytes), `"method":"initialize"`) || first.Server != "beta" {
		t.Errorf("first frame %+v, want the client's initialize", first)
	}
	if frames[1].Dir != mcpsession.In || !frames[1].At.After(first.At) || first.At.Year() != 2026 {
		t.Errorf("second frame %v at %v, want the answer, recorded after %v", frames[1].Dir, frames[1].At, first.At)
	}
	if j := frames[7]; !j.Junk || string(j.Bytes) != "banner: not JSON" {
		t.Errorf("junk frame %+v", j)
	}
	if !last.Truncated() || last.Size != 300000 || !last.At.Equal(time.Date(2026, 12, 1, 15, 0, 2, 0, time.UTC)) {
		t.Errorf("cut frame %+v, want its recorded size and time", last)
	}
	if sv := c.Servers[0]; strings.Join(sv.Facts.Capabilities, " ") != "tools(listChanged)" {
		t.Errorf("server facts %+v, want the capabilities its initialize answer declared", sv.Facts)
	}

	d := NewDecoder()
	for _, l := range strings.Split(string(data), "\n") {
		d.Line([]byte(l))
	}
	if d.Capture().FrameLog("beta") != nil {
		t.Error("a decoder of a live feed keeps frames")
	}
}
