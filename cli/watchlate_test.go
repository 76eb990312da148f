package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader/demo"
)

// TestWatchShowsEveryCall: a real client makes n calls through a real tap
// right after its handshake, before watch connects to the tap's feed;
// watch, then connecting, shows every call, in its lines and in the
// interface's backend, or, past what the feed keeps for a late reader,
// says how many lines it did not get where the calls are.
func TestWatchShowsEveryCall(t *testing.T) {
	bin := build(t, "..")
	for _, tt := range []struct {
		name  string
		calls int
		all   bool // every call is shown, nothing said missing
	}{
		{"50 calls", 50, true},
		{"600 calls", 600, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runtime := t.TempDir()
			dir := runtime + "/mcplens"
			record := filepath.Join(t.TempDir(), "alpha.jsonl")
			cl, cctx := tapClient(t, bin, []string{"XDG_RUNTIME_DIR=" + runtime}, "--name", "alpha", "--record", record, "--", bin, demo.Subcommand, "alpha")
			calls := make([]string, tt.calls)
			for i := range calls {
				calls[i] = "request"
			}
			driveDemo(t, cctx, cl, "cursor-vscode", "1.0.0", calls...)

			// Only now, the client's calls made, does watch start.
			ctx, cancel := context.WithCancel(context.Background())
			var out tapBuffer
			done := make(chan struct{})
			go func() { defer close(done); watch(ctx, dir, "", nil, &out) }()
			live := capture.NewLive(ctx, dir)
			go func() {
				for range live.Events() {
				}
			}()
			defer func() { cancel(); <-done }()

			callRow := regexp.MustCompile(`(?m)^\S+ alpha request \{"message":"hi from cursor-vscode"\}`)
			notice := regexp.MustCompile(`alpha: (\d+) lines of its feed were not received`)
			if tt.all {
				waitUntil(t, fmt.Sprintf("watch to print %d calls", tt.calls), func() bool {
					return len(callRow.FindAllString(out.String(), -1)) == tt.calls
				})
				waitUntil(t, fmt.Sprintf("the live backend to hold %d calls", tt.calls), func() bool { return len(live.Observed()) == tt.calls })
				if strings.Contains(out.String(), "not received") || live.Unkept().Lines != 0 {
					t.Errorf("watch says lines were missed (%+v):\n%s", live.Unkept(), out.String())
				}
				return
			}
			// Lines past what the feed keeps: the count of those missed is
			// told, and every call not among them is shown. The feed's
			// lines are the recording's, in its order: the calls watch
			// can show are those of the recording without the lines
			// missed (the opening's 64 kept, then those missed).
			waitUntil(t, "watch to say how many lines it missed", func() bool { return notice.MatchString(out.String()) })
			var missed int
			fmt.Sscan(notice.FindStringSubmatch(out.String())[1], &missed)
			var lines [][]byte
			waitUntil(t, "the recording to hold every line", func() bool {
				data, err := os.ReadFile(record)
				lines = bytes.SplitAfter(data, []byte("\n"))
				return err == nil && len(lines) > 1+64+missed+1 && len(lines[len(lines)-1]) == 0
			})
			lines = lines[:len(lines)-1]
			// Lines the tap copied after watch connected came live.
			if most := len(lines) - 1 - 64 - 256; missed <= 0 || missed > most {
				t.Errorf("watch says %d lines missed, want at most the %d between the first 64 and the last 256", missed, most)
			}
			d := capture.NewDecoder()
			shown := 0
			for i, line := range lines {
				if i > 64 && i <= 64+missed { // the header, the opening, then those missed
					continue
				}
				for _, ob := range d.Line(line) {
					if ob.Kind == capture.CallAnswered {
						shown++
					}
				}
			}
			if shown < tt.calls/5 {
				t.Fatalf("%d of %d calls left to show", shown, tt.calls)
			}
			waitUntil(t, fmt.Sprintf("watch to print %d calls", shown), func() bool {
				return len(callRow.FindAllString(out.String(), -1)) == shown
			})
			waitUntil(t, "the live backend to count the missed lines", func() bool { return live.Unkept().Lines == missed })
			if got, want := len(live.Observed()), len(d.Capture().Calls); got != want {
				t.Errorf("the live backend holds %d calls, want %d", got, want)
			}
			if got := live.Unkept().String(); !strings.Contains(got, fmt.Sprintf("not shown: %d feed lines not received", missed)) {
				t.Errorf("the live backend says %q", got)
			}
		})
	}
}
