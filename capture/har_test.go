package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/bounded"
)

// harOf writes lines as a recording and returns WriteHAR's log of it,
// decoded: each entry's request text and response status.
func harOf(t *testing.T, lines []string) (reqs []string, statuses []int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if skipped, err := WriteHAR(&out, bounded.Lines{}, path); skipped != nil || err != nil {
		t.Fatalf("WriteHAR = %v, %v", skipped, err)
	}
	var h struct {
		Log struct {
			Version string
			Creator struct{ Name string }
			Entries []struct {
				Request struct {
					URL      string
					PostData struct{ Text string }
				}
				Response struct{ Status int }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &h); err != nil || h.Log.Version != "1.2" || h.Log.Creator.Name != "mcplens" {
		t.Fatalf("WriteHAR wrote %v (version %q):\n%.2000s", err, h.Log.Version, out.String())
	}
	for _, e := range h.Log.Entries {
		var m struct{ ID json.RawMessage }
		json.Unmarshal([]byte(e.Request.PostData.Text), &m)
		reqs = append(reqs, string(m.ID))
		statuses = append(statuses, e.Response.Status)
	}
	return reqs, statuses
}

const testHeader = `{"format":"mcplens-tap","version":1,"server":"a","t":"2026-12-01T10:00:00Z","command":["srv"]}`

func testRequest(id int) string {
	return fmt.Sprintf(`{"t":"2026-12-01T10:00:01Z","server":"a","dir":"c2s","frame":{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x"}}}`, id)
}

func testAnswer(id int) string {
	return fmt.Sprintf(`{"t":"2026-12-01T10:00:02Z","server":"a","dir":"s2c","frame":{"jsonrpc":"2.0","id":%d,"result":{}}}`, id)
}

// TestWriteHARStreams reads requests answered out of order, an answer
// recorded before its request, and a request never answered: entries come
// in the order the requests were recorded, each with its answer.
func TestWriteHARStreams(t *testing.T) {
	reqs, statuses := harOf(t, []string{testHeader,
		testRequest(1), testRequest(2), testAnswer(3), testRequest(3), testRequest(4),
		testAnswer(2), testAnswer(1),
	})
	if got, want := fmt.Sprint(reqs, statuses), "[1 2 3 4] [200 200 200 0]"; got != want {
		t.Errorf("entries %s, want %s", got, want)
	}
	reqs, _ = harOf(t, []string{testHeader})
	if len(reqs) != 0 {
		t.Errorf("a recording of no request: entries %v", reqs)
	}
}

// TestWriteHARBoundsWaiting sends more requests than WriteHAR keeps
// waiting for their answers, none answered until the end: the oldest are
// written unanswered as the newest arrive, so that what it holds stays
// bounded, and the last ones still get their answers.
func TestWriteHARBoundsWaiting(t *testing.T) {
	n := maxOpen + 10
	lines := []string{testHeader}
	for id := 1; id <= n; id++ {
		lines = append(lines, testRequest(id))
	}
	for id := 1; id <= n; id++ {
		lines = append(lines, testAnswer(id))
	}
	reqs, statuses := harOf(t, lines)
	if len(reqs) != n {
		t.Fatalf("%d entries, want %d", len(reqs), n)
	}
	unanswered := 0
	for i, s := range statuses {
		if reqs[i] != fmt.Sprint(i+1) {
			t.Fatalf("entry %d is request %s, want them in order", i, reqs[i])
		}
		if s == 0 {
			unanswered++
		}
	}
	if unanswered != 10 || statuses[0] != 0 || statuses[n-1] != 200 {
		t.Errorf("%d entries unanswered (first %d, last %d), want the 10 oldest", unanswered, statuses[0], statuses[n-1])
	}
}
