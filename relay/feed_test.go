package relay_test

import (
	"bufio"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/relay"
)

// TestFeedOpening: a reader that connects after the client spoke gets the
// header, the feed's opening (its first lines, up to 64 and 256 KiB, where
// the handshake and first listing are), the count of the lines after it
// that the feed let go, the latest lines it kept (up to 256 and 256 KiB),
// then the lines from when it connected.
func TestFeedOpening(t *testing.T) {
	for _, tt := range []struct {
		name        string
		size, lines int
		opening     int // how many of the lines the opening keeps
		skipped     int // how many after it are let go
	}{
		{"small lines, all kept", 100, 100, 64, 0},
		{"small lines, some let go", 100, 400, 64, 400 - 64 - 256},
		// 256 KiB hold two of 100 KiB: the third ends the opening, and
		// the latest two are kept.
		{"large lines", 100 << 10, 5, 2, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sock := filepath.Join(t.TempDir(), "feed.sock")
			header := relay.HeaderLine(relay.Source{Server: "alpha"}, time.Now())
			feed, err := relay.Serve(sock, header)
			if err != nil {
				t.Fatal(err)
			}
			defer feed.Close()
			line := func(i int) string {
				head := fmt.Sprintf(`{"n":%d,"pad":"`, i)
				return head + strings.Repeat("x", tt.size-len(head)-3) + "\"}\n"
			}
			for i := range tt.lines {
				feed.WriteLine([]byte(line(i)))
			}
			conn, err := net.Dial("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			deadline := time.Now().Add(30 * time.Second)
			for feed.Readers() == 0 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			feed.WriteLine([]byte(line(1000)))
			conn.SetReadDeadline(deadline)
			r := bufio.NewReaderSize(conn, 1<<20)
			var want []string
			want = append(want, string(header))
			for i := range tt.opening {
				want = append(want, line(i))
			}
			if tt.skipped > 0 {
				want = append(want, fmt.Sprintf(`"feedDropped":%d}`, tt.skipped))
			}
			for i := tt.opening + tt.skipped; i < tt.lines; i++ {
				want = append(want, line(i))
			}
			want = append(want, line(1000))
			for i, w := range want {
				got, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
				if got != w && !(strings.HasPrefix(w, `"feedDropped"`) && strings.HasSuffix(got, w+"\n")) {
					t.Fatalf("line %d = %.40q…, want %.40q…", i, got, w)
				}
			}
		})
	}
}
