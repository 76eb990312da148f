package loader

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// TestPageTakerTakesItsAnswers sends the lister's requests through a page
// taker on a tapped pipe: the answers to them, results and errors, go to
// the lister and never to the protocol, which never sent the requests; the
// FrameLog keeps them as they came, and everything else passes untouched.
func TestPageTakerTakesItsAnswers(t *testing.T) {
	page := `{"jsonrpc":"2.0","id":"list-1","result":{"tools":[{"name":"a"}],"nextCursor":"2"}}`
	refused := `{"jsonrpc":"2.0","id":"list-2","error":{"code":-1,"message":"no"}}`
	lines := []string{
		`{"jsonrpc":"2.0","id":"list-9","result":{"tools":[]}}`, // not asked for: passed on
		page,
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		refused,
		`{"jsonrpc":"2.0","id":"list-3","result":[]}`, // not an object: the lister's to judge
	}
	server, toServer := io.Pipe()
	log := newFrameLog("s")
	var taker *pageTaker
	c := observers{log, observerFunc(func(f *frameInfo) { taker.frame(f) })}
	stdin := newTapWriter(toServer, c)
	fromServer, stdout := io.Pipe()
	tap := newTapReader(fromServer, c, DefaultLimits.Line)
	taker = newPageTaker(DefaultLimits.Page, stdin, tap.eof)

	// The server: reads each request, then writes the lines up to the
	// answer to it.
	go func() {
		requests := bufio.NewScanner(server)
		next := 0
		for requests.Scan() {
			for next < len(lines) {
				line := lines[next]
				next++
				fmt.Fprintln(stdout, line)
				if strings.Contains(line, `"id":"list-`) && !strings.Contains(line, "list-9") {
					break
				}
			}
		}
		for _, line := range lines[next:] {
			fmt.Fprintln(stdout, line)
		}
		stdout.Close()
	}()
	read := make(chan []byte)
	go func() {
		got, _ := io.ReadAll(tap)
		read <- got
	}()

	ctx := context.Background()
	result, size, err := taker.page(ctx, "list-1", map[string]any{}, DefaultLimits.Listing)
	if want := `{"tools":[{"name":"a"}],"nextCursor":"2"}`; err != nil || string(result) != want || size != len(want) {
		t.Errorf("page(list-1) = %s (%d bytes), %v; want %s", result, size, err, want)
	}
	if _, _, err := taker.page(ctx, "list-2", map[string]any{"cursor": "2"}, DefaultLimits.Listing); err == nil || err.Error() != "server answered error -1: no" {
		t.Errorf("page(list-2) error %v, want the server's error", err)
	}
	if result, _, err := taker.page(ctx, "list-3", map[string]any{}, DefaultLimits.Listing); err != nil || string(result) != "[]" {
		t.Errorf("page(list-3) = %s, %v; want the result as it came", result, err)
	}
	toServer.Close()
	got := <-read
	want := lines[0] + "\n" + lines[2] + "\n"
	if string(got) != want {
		t.Errorf("the protocol read\n%s\nwant\n%s", got, want)
	}
	var in, out []string
	for _, f := range log.Frames() {
		if f.Dir == mcpsession.In {
			in = append(in, string(f.Bytes))
		} else {
			out = append(out, string(f.Bytes))
		}
	}
	if strings.Join(in, "\n") != strings.Join(lines, "\n") {
		t.Errorf("the FrameLog holds\n%s\nwant every line as it came", strings.Join(in, "\n"))
	}
	if len(out) != 3 || out[1] != `{"jsonrpc":"2.0","id":"list-2","method":"tools/list","params":{"cursor":"2"}}` {
		t.Errorf("requests written %q, want the three, as mcp-go writes them", out)
	}
	if n := taker.handed.Load(); n != 3 {
		t.Errorf("handed %d answers, want 3", n)
	}
	// Once taken (or given up), an id is no longer expected: a late answer
	// to it goes to the protocol.
	tap = newTapReader(strings.NewReader(page+"\n"), taker, DefaultLimits.Line)
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
			if ev.Frames || ev.State == mcpsession.Connecting {
				continue
			}
			if ev.State != mcpsession.Ready || len(ev.Tools) != 50 {
				t.Fatalf("%s: %v with %d tools (%s), want ready with 50", ev.Server, ev.State, len(ev.Tools), ev.Err)
			}
			if n := s.byName[spec.Label].pages.handed.Load(); n != 3 {
				t.Errorf("the tap handed %d answers to the lister, want 3 (one per page)", n)
			}
			return
		case <-deadline:
			t.Fatal("not ready within 20s")
		}
	}
}
