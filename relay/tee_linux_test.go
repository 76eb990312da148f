package relay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineSink keeps the lines a copier writes.
type lineSink struct {
	mu    sync.Mutex
	lines []string
}

func (s *lineSink) WriteLine(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, string(line))
}

func (s *lineSink) Close() error { return nil }

// TestTeePipeFull relays frames through cat, one answer at a time, while
// the copy's pipe holds one page, so that frames find it full: they pass
// by read and write, and the copy holds them at their place, so that every
// frame is recorded, in order, and the client gets every byte. Each frame
// is recorded at the time it passed, whenever the copy read it: each
// request before its echo, each echo before the next request.
func TestTeePipeFull(t *testing.T) {
	copyPipeSize.Store(4096)
	defer copyPipeSize.Store(0)
	var want bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&want, `{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":%q}}`+"\n", i, strings.Repeat("p", 900))
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	sink := &lineSink{}
	c := NewCopier(CopierOptions{Server: "cat"}, sink)
	s := Stdio{Command: "cat", Stdin: inR, Stdout: outW, Stderr: io.Discard, Copy: c}
	done := make(chan error, 1)
	go func() {
		_, err := s.Run()
		outW.Close()
		done <- err
	}()
	// Frame by frame, as a client waits for each answer.
	var got bytes.Buffer
	r := bufio.NewReader(outR)
	for line := range strings.Lines(want.String()) {
		inW.WriteString(line)
		echo, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(echo)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c.Close()
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("the client got %d bytes, want the %d sent", got.Len(), want.Len())
	}
	ids := map[string][]int{}
	times := map[string][]time.Time{}
	for _, line := range sink.lines {
		var r struct {
			T     time.Time `json:"t"`
			Dir   string    `json:"dir"`
			Frame struct {
				ID int `json:"id"`
			} `json:"frame"`
			Dropped int `json:"dropped"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Dropped > 0 {
			t.Fatalf("recorded %s (%v)", line, err)
		}
		ids[r.Dir] = append(ids[r.Dir], r.Frame.ID)
		times[r.Dir] = append(times[r.Dir], r.T)
	}
	for i := range min(len(times["c2s"]), len(times["s2c"])) {
		if times["s2c"][i].Before(times["c2s"][i]) || i > 0 && times["c2s"][i].Before(times["s2c"][i-1]) {
			t.Fatalf("frame %d: request recorded at %s, its echo at %s: not in the order they passed",
				i, times["c2s"][i].Format(time.StampMicro), times["s2c"][i].Format(time.StampMicro))
		}
	}
	for _, dir := range []string{"c2s", "s2c"} {
		if len(ids[dir]) != 200 {
			t.Fatalf("%s: recorded %d frames, want 200", dir, len(ids[dir]))
		}
		for i, id := range ids[dir] {
			if id != i {
				t.Fatalf("%s: frame %d recorded as id %d: out of order", dir, i, id)
			}
		}
	}
}
