package history_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/history"
)

// The records written by one run are the records the next run opens.
func TestLogSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	l, err := history.Open(path)
	if err != nil || len(l.Records()) != 0 {
		t.Fatalf("Open(missing) = %v, %v; want an empty log", l.Records(), err)
	}
	first := history.Record{Time: time.Unix(1, 0).UTC(), Server: "alpha", Tool: "request", Registered: "mcp__alpha__request",
		Policy: "lionagi", Arguments: json.RawMessage(`{"q":"<a&b>"}`), Result: json.RawMessage(`{"content":[]}`), LatencyMS: 1.5,
		Frames: []history.Frame{{Dir: "out", Data: `{"jsonrpc":"2.0"}`}, {Dir: "in", Data: `{"jsonrp`}}}
	second := first
	second.Arguments = json.RawMessage(`{"q":"again"}`)
	l.Append(first)
	if err := history.Write(path, l.Bytes()); err != nil {
		t.Fatal(err)
	}
	l.Append(second)
	if err := history.Write(path, l.Bytes()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("history file mode = %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	again, err := history.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Records(); len(got) != 2 || string(got[0].Arguments) != `{"q":"<a&b>"}` || got[1].Frames[1].Data != `{"jsonrp` {
		t.Fatalf("reopened history = %+v, want the two records as written", got)
	}
	last, ok := again.Last("alpha", "request")
	if !ok || string(last.Arguments) != `{"q":"again"}` {
		t.Errorf("Last(alpha, request) = %s, %v; want the second call's arguments", last.Arguments, ok)
	}
	if _, ok := again.Last("beta", "request"); ok {
		t.Error("Last(beta, request) found a call never made")
	}
}

// A file that is not a history (a link, another file) is left alone.
func TestWriteRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := history.Write(other, []byte("{}\n")); err == nil || !strings.Contains(err.Error(), "not written by mcplens") {
		t.Errorf("Write(a file of notes) = %v, want it refused", err)
	}
	if b, _ := os.ReadFile(other); string(b) != "my notes\n" {
		t.Errorf("the notes became %q", b)
	}
	if _, err := history.Open(other); err == nil {
		t.Error("Open(a file of notes) said nothing of its lines")
	}
}

// A record is bounded: the newest MaxRecords, each text cut.
func TestAppendBounds(t *testing.T) {
	l, _ := history.Open("")
	big := strings.Repeat("x", history.MaxText+10)
	for range history.MaxRecords + 3 {
		l.Append(history.Record{Server: "s", Tool: "t", Arguments: json.RawMessage(`{}`),
			Result: json.RawMessage(`"` + big + `"`), Frames: []history.Frame{{Dir: "in", Data: big}}})
	}
	rs := l.Records()
	if len(rs) != history.MaxRecords {
		t.Fatalf("%d records kept, want %d", len(rs), history.MaxRecords)
	}
	if r := rs[0]; r.Result != nil || len(r.Frames[0].Data) != history.MaxText || !r.Cut {
		t.Errorf("a record over the limits kept %d bytes of result, %d of frame, cut %v", len(r.Result), len(r.Frames[0].Data), r.Cut)
	}
	if got, bad := history.Parse(l.Bytes()); len(got) != history.MaxRecords || bad != 0 {
		t.Errorf("Parse(Append's bytes) = %d records, %d bad", len(got), bad)
	}
}
