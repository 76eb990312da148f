package relay

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/recording"
)

// TestRecordingRoundTrip writes a recording with the relay's own encoder
// and reads it back with capture's reader: every kind of line the tap
// writes (the header, JSON frames both ways, junk, a cut frame, stderr, a
// dropped notice) comes back as what it recorded.
func TestRecordingRoundTrip(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 1, time.UTC)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	long := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 2*CutKeep) + `"}}`
	frames := []frame{
		{dir: recording.ClientToServer, body: true, data: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.0.1"}}}`)},
		{dir: recording.ServerToClient, body: true, data: []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"srv","version":"0.1"},"instructions":"be kind"}}`)},
		{dir: recording.ServerToClient, body: true, data: []byte("log: not JSON")},
		{dir: recording.ClientToServer, body: true, data: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)},
		{dir: recording.ServerToClient, body: true, data: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"add","description":"sums"}]}}`)},
		{dir: recording.ServerToClient, body: true, data: []byte(long[:CutKeep+100]), size: len(long)},
		{dir: recording.Stderr, body: true, data: []byte("listening on stdio")},
	}
	var file bytes.Buffer
	file.Write(HeaderLine(Source{Server: "alpha", Command: []string{"node", "srv.js"}}, t0))
	enc := newEncoder("alpha", nil)
	for i, f := range frames {
		f.t = at(i)
		if f.size == 0 {
			f.size = len(f.data)
		}
		file.Write(enc.frame(f))
	}
	file.Write(enc.dropped(at(len(frames)), 3))
	path := filepath.Join(t.TempDir(), "alpha.jsonl")
	if err := os.WriteFile(path, file.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if !capture.IsRecording(path) {
		t.Fatalf("capture does not take the relay's recording for one:\n%s", file.Bytes())
	}

	c, err := capture.Read(capture.ReadOptions{Lines: bounded.Lines{Line: bounded.DefaultLine, Total: bounded.DefaultTotal}, Frames: true}, path)
	if err != nil {
		t.Fatalf("capture.Read: %v", err)
	}
	sv := c.Server("alpha")
	if sv == nil {
		t.Fatalf("capture read no server alpha from:\n%s", file.Bytes())
	}
	if !slices.Equal(sv.Command, []string{"node", "srv.js"}) || sv.ServerName != "srv" || sv.Client.Name != "claude-code" || sv.Facts.Instructions != "be kind" {
		t.Errorf("server read back: command %q, server %q, client %q, instructions %q; want the recorded ones", sv.Command, sv.ServerName, sv.Client.Name, sv.Facts.Instructions)
	}
	var names []string
	for _, tool := range sv.Tools {
		names = append(names, tool.Name)
	}
	if !sv.Listed || !slices.Equal(names, []string{"echo", "add"}) {
		t.Errorf("tools read back %q (listed %v), want [echo add]", names, sv.Listed)
	}
	if sv.Dropped != 3 || !slices.Equal(sv.Stderr, []string{"listening on stdio"}) {
		t.Errorf("dropped %d, stderr %q; want 3 and the recorded line", sv.Dropped, sv.Stderr)
	}

	got := c.FrameLog("alpha").Frames()
	wire := frames[:len(frames)-1] // stderr is not a frame of the wire
	if len(got) != len(wire) {
		t.Fatalf("%d frames read back, want %d", len(got), len(wire))
	}
	for i, f := range wire {
		g := got[i]
		wantDir := mcpsession.In
		if f.dir == recording.ClientToServer {
			wantDir = mcpsession.Out
		}
		wantBytes, cut := f.data, f.size > len(f.data)
		if cut {
			wantBytes = f.data[:CutKeep]
		}
		if g.Dir != wantDir || !g.At.Equal(at(i)) || !sameJSONOrText(g.Bytes, wantBytes) || g.Truncated() != cut || cut && g.Size != f.size {
			t.Errorf("frame %d read back as %v at %v, %q (size %d, truncated %v); want %v at %v, %q (size %d)",
				i, g.Dir, g.At, g.Bytes, g.Size, g.Truncated(), wantDir, at(i), wantBytes, f.size)
		}
		if junk := !json.Valid(f.data) && f.dir == recording.ServerToClient; g.Junk != junk {
			t.Errorf("frame %d read back with junk %v, want %v", i, g.Junk, junk)
		}
	}
}

// sameJSONOrText reports whether a and b are the same JSON value, or,
// either not being JSON, the same bytes.
func sameJSONOrText(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
