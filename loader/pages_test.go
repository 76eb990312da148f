package loader

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/scale"
	"github.com/mcplens/mcplens/loader/config"
)

// TestTapHandsListAnswersOver reads a server's lines through a tap with a
// page taker: the answer to an expected tools/list goes to the lister,
// mcp-go gets a stub answer to the same id, the Wire keeps the answer as
// it came, and everything else passes untouched.
func TestTapHandsListAnswersOver(t *testing.T) {
	page := `{"jsonrpc":"2.0","id":"list-1","result":{"tools":[{"name":"a"}],"nextCursor":"2"}}`
	lines := []string{
		`{"jsonrpc":"2.0","id":"list-9","result":{"tools":[]}}`, // not expected: passed on
		page,
		`{"jsonrpc":"2.0","id":"list-2","error":{"code":-1,"message":"no"}}`, // an error: mcp-go's
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","id":"list-3","result":[]}`, // not an object: mcp-go's to judge
	}
	pages := newPageTaker(DefaultLimits.Page)
	for _, id := range []string{`"list-1"`, `"list-2"`, `"list-3"`} {
		pages.expect(id, DefaultLimits.Listing)
	}
	w := newWire("s", nil)
	tap := newTapReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), w, DefaultLimits.Line)
	tap.pages = pages
	got, err := io.ReadAll(tap)
	if err != nil {
		t.Fatal(err)
	}
	want := lines
	want[1] = `{"jsonrpc":"2.0","id":"list-1","result":{}}`
	if g := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n"); strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("the protocol read\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if frames := w.Frames(); len(frames) != len(lines) || string(frames[1].Bytes) != page {
		t.Errorf("the Wire holds %d frames, the second %s; want %d, the answer as sent", len(frames), frames[1].Bytes, len(lines))
	}
	taken, ok := pages.take(`"list-1"`)
	if want := `{"tools":[{"name":"a"}],"nextCursor":"2"}`; !ok || string(taken.result) != want || taken.size != len(want) {
		t.Errorf("take(list-1) = %s (%d bytes), %v; want %s", taken.result, taken.size, ok, want)
	}
	for _, id := range []string{`"list-1"`, `"list-2"`, `"list-3"`} {
		if r, ok := pages.take(id); ok {
			t.Errorf("take(%s) again = %s: an answer is taken once, and errors never", id, r.result)
		}
	}
	// Once taken (or given up), an id is no longer expected: a late answer
	// to it goes to mcp-go.
	tap = newTapReader(strings.NewReader(page+"\n"), newWire("s", nil), DefaultLimits.Line)
	tap.pages = pages
	if late, _ := io.ReadAll(tap); !bytes.Equal(late, []byte(page+"\n")) {
		t.Errorf("a late answer reached the protocol as %s", late)
	}
}

// TestListingTakesPages lists a server of 50 tools in pages of 20 over
// stdio: each of the three answers is handed to the lister by the tap,
// and the rows are all there.
func TestListingTakesPages(t *testing.T) {
	spec := config.ServerSpec{Label: scale.Label(0), Command: scale.Path(t), Args: append(scale.Args(0, 50, 0), "-page", "20")}
	s := Open(&config.Config{Path: "paged", Servers: []config.ServerSpec{spec}}, Options{})
	t.Cleanup(func() { s.Close() })
	deadline := time.After(20 * time.Second)
	for {
		select {
		case ev := <-s.Events():
			if ev.Wire || ev.State == Connecting {
				continue
			}
			if ev.State != Ready || len(ev.Tools) != 50 {
				t.Fatalf("%s: %v with %d tools (%s), want ready with 50", ev.Server, ev.State, len(ev.Tools), ev.Err)
			}
			if n := s.byName[spec.Label].lister.pages.handed.Load(); n != 3 {
				t.Errorf("the tap handed %d answers to the lister, want 3 (one per page)", n)
			}
			return
		case <-deadline:
			t.Fatal("not ready within 20s")
		}
	}
}
