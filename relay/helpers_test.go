package relay_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

func TestMain(m *testing.M) {
	code := m.Run()
	hostile.Cleanup()
	if relayBuild.dir != "" {
		os.RemoveAll(relayBuild.dir)
	}
	os.Exit(code)
}

// relayBuild is the one build of testdata/relaymain per test binary.
var relayBuild struct {
	once      sync.Once
	dir, path string
	err       error
}

// relayCommand returns a command running a relay process
// (testdata/relaymain) of command, recording to record ("" for none).
func relayCommand(t testing.TB, record string, command ...string) *exec.Cmd {
	t.Helper()
	relayBuild.once.Do(func() {
		if relayBuild.dir, relayBuild.err = os.MkdirTemp("", "mcplens-relay-"); relayBuild.err != nil {
			return
		}
		relayBuild.path = filepath.Join(relayBuild.dir, "relaymain")
		out, err := exec.Command("go", "build", "-o", relayBuild.path, "./testdata/relaymain").CombinedOutput()
		if err != nil {
			relayBuild.err = fmt.Errorf("go build ./testdata/relaymain: %v\n%s", err, out)
		}
	})
	if relayBuild.err != nil {
		t.Fatal(relayBuild.err)
	}
	return exec.Command(relayBuild.path, append([]string{"-record", record}, command...)...)
}

// A memSink keeps the lines a copier writes.
type memSink struct {
	mu    sync.Mutex
	lines [][]byte
}

func (m *memSink) WriteLine(line []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lines = append(m.lines, bytes.Clone(line))
}

func (m *memSink) Close() error { return nil }

func (m *memSink) records(t testing.TB) []record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return parseRecords(t, bytes.Join(m.lines, nil))
}

// A record is one line of a recording.
type record struct {
	Format  string          `json:"format"`
	Version int             `json:"version"`
	T       string          `json:"t"`
	Server  string          `json:"server"`
	Dir     string          `json:"dir"`
	Frame   json.RawMessage `json:"frame"`
	Text    *string         `json:"text"`
	Cut     int             `json:"cut"`
	SSE     string          `json:"sse"`
	Dropped int             `json:"dropped"`
	HTTP    *struct {
		Method  string              `json:"method"`
		URL     string              `json:"url"`
		Status  int                 `json:"status"`
		Headers map[string][]string `json:"headers"`
	} `json:"http"`
}

// body returns the frame's bytes as recorded.
func (r record) body() string {
	if r.Frame != nil {
		return string(r.Frame)
	}
	if r.Text != nil {
		return *r.Text
	}
	return ""
}

func parseRecords(t testing.TB, data []byte) []record {
	t.Helper()
	var out []record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("recording line %q: %v", sc.Text(), err)
		}
		if r.T != "" {
			if _, err := time.Parse(time.RFC3339Nano, r.T); err != nil {
				t.Errorf("line %q: t: %v", sc.Text(), err)
			}
		}
		out = append(out, r)
	}
	return out
}

func readRecording(t testing.TB, path string) []record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseRecords(t, data)
}

// joined returns the frames of direction dir joined by newlines: the
// bytes that passed, when no frame was cut.
func joined(rs []record, dir string) string {
	var parts []string
	for _, r := range rs {
		if r.Dir == dir {
			parts = append(parts, r.body())
		}
	}
	return strings.Join(parts, "\n")
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// everythingEntry is the installed reference server's entry point
// (internal/testkit/everything).
func everythingEntry(t testing.TB) string { return everything.Entry(t) }
