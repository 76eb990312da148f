package relay_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/recording"
	"github.com/mcplens/mcplens/relay"
)

// copyOf hands chunks to one stream of a fresh copier and returns the
// records it wrote.
func copyOf(t *testing.T, opts relay.CopierOptions, framing relay.Framing, chunks ...string) []record {
	t.Helper()
	sink := &memSink{}
	c := relay.NewCopier(opts, sink)
	s := c.Stream(recording.ServerToClient, framing)
	for _, ch := range chunks {
		s.Write([]byte(ch))
	}
	s.End()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return sink.records(t)
}

func TestCopierFrames(t *testing.T) {
	type want struct {
		frame, text string // one of them
		cut         int
		sse         string
	}
	tests := []struct {
		name    string
		opts    relay.CopierOptions
		framing relay.Framing
		chunks  []string
		want    []want
	}{
		{"a line in pieces", relay.CopierOptions{}, relay.Lines,
			[]string{`{"a":`, `1}` + "\n" + `{"b"`, `:2}` + "\n"},
			[]want{{frame: `{"a":1}`}, {frame: `{"b":2}`}}},
		{"junk and a partial last line", relay.CopierOptions{}, relay.Lines,
			[]string{"banner\n{\"id\":1}\nbye"},
			[]want{{text: "banner"}, {frame: `{"id":1}`}, {text: "bye"}}},
		{"CRLF", relay.CopierOptions{}, relay.Lines,
			[]string{"{\"id\":1}\r\n"},
			[]want{{frame: `{"id":1}`}}},
		{"a token's shape", relay.CopierOptions{}, relay.Lines,
			[]string{`{"token":"sk-proj-abcdefghijklmnopqrstuvwx"}` + "\n"},
			[]want{{frame: `{"token":"****"}`}}},
		{"a secret given", relay.CopierOptions{Secrets: []string{"hunter2hunter2"}}, relay.Lines,
			[]string{`{"pw":"hunter2hunter2"} plain hunter2hunter2` + "\n"},
			[]want{{text: `{"pw":"****"} plain ****`}}},
		{"cut", relay.CopierOptions{FrameCap: 8}, relay.Lines,
			[]string{`{"a":"0123456789"}` + "\n"},
			[]want{{text: `{"a":"01`, cut: 18}}},
		{"cut across chunks, then a whole line", relay.CopierOptions{FrameCap: 8}, relay.Lines,
			[]string{`{"a":"0123`, `4567`, `89"}` + "\n" + `{"b":1}` + "\n"},
			[]want{{text: `{"a":"01`, cut: 18}, {frame: `{"b":1}`}}},
		{"events", relay.CopierOptions{}, relay.Events,
			[]string{"event: endpoint\r\ndata: /message?s=1\r\n\r\n", "data: {\"a\":\ndata: 1}\n\n: comment\n\n"},
			[]want{{text: "/message?s=1", sse: "endpoint"}, {frame: `{"a":1}`}}},
		{"a whole body", relay.CopierOptions{}, relay.Whole,
			[]string{"{\n  \"a\": ", "1\n}\n"},
			[]want{{frame: `{"a":1}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := copyOf(t, tt.opts, tt.framing, tt.chunks...)
			if len(rs) != len(tt.want) {
				t.Fatalf("records %+v, want %d", rs, len(tt.want))
			}
			for i, w := range tt.want {
				r := rs[i]
				gotText := ""
				if r.Text != nil {
					gotText = *r.Text
				}
				if string(r.Frame) != w.frame || gotText != w.text || r.Cut != w.cut || r.SSE != w.sse || r.Dir != "s2c" {
					t.Errorf("record %d = frame %s text %q cut %d sse %q dir %s; want %+v",
						i, r.Frame, gotText, r.Cut, r.SSE, r.Dir, w)
				}
			}
		})
	}
}

func TestRecording(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.jsonl")
	header := relay.HeaderLine(relay.Source{Server: "a", Command: []string{"srv", "--token", "s3cr3t-value"}}, time.Now())
	if strings.Contains(string(header), "s3cr3t") {
		t.Errorf("header %s holds the command's secret", header)
	}
	line := []byte(`{"t":"2026-01-01T00:00:00Z","server":"a","dir":"c2s","text":"0123456789"}` + "\n")
	rec, err := relay.Record(path, header, relay.RecordOptions{Cap: int64(len(header) + 2*len(line)), Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	for range 7 {
		rec.WriteLine(line)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rec.jsonl", "rec.jsonl.1", "rec.jsonl.2"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", name, fi.Mode().Perm())
		}
		rs := readRecording(t, filepath.Join(dir, name))
		if len(rs) == 0 || rs[0].Format != recording.Format || rs[0].Version != recording.Version || len(rs) > 3 {
			t.Errorf("%s: %d records, first %+v; want the header and at most two lines", name, len(rs), rs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "rec.jsonl.3")); err == nil {
		t.Error("rec.jsonl.3 kept, want two rotated files only")
	}

	// A new recording rotates the last one out of the way.
	before, _ := os.ReadFile(path)
	rec, err = relay.Record(path, header, relay.RecordOptions{Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	rec.Close()
	if moved, _ := os.ReadFile(path + ".1"); string(moved) != string(before) {
		t.Errorf("after a new recording, rec.jsonl.1 = %q, want the last recording %q", moved, before)
	}

	// It refuses a file that is not a recording, and a link.
	foreign := filepath.Join(dir, "notes.txt")
	os.WriteFile(foreign, []byte("mine"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(foreign, link)
	for _, p := range []string{foreign, link} {
		var refused *safefile.RefusedError
		if _, err := relay.Record(p, header, relay.RecordOptions{}); !errors.As(err, &refused) {
			t.Errorf("Record(%s) = %v, want it refused", p, err)
		}
	}
	if b, _ := os.ReadFile(foreign); string(b) != "mine" {
		t.Errorf("the foreign file now holds %q", b)
	}
}

func TestFeedDir(t *testing.T) {
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	dir, err := relay.FeedDir()
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 || dir != filepath.Join(rt, "mcplens") {
		t.Fatalf("FeedDir() = %s (%v, %v), want %s/mcplens, 0700", dir, fi.Mode(), err, rt)
	}
	if p := relay.FeedPath(dir, "my server/../x"); filepath.Dir(p) != dir || strings.Contains(filepath.Base(p), "/") {
		t.Errorf("FeedPath = %s, want a file in %s", p, dir)
	}
	os.Chmod(dir, 0o755)
	if _, err := relay.FeedDir(); err == nil {
		t.Error("FeedDir() accepts a directory open to others")
	}
}
