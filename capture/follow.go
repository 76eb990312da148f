package capture

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"path/filepath"
	"time"
)

// rescan is how often Follow looks for taps that started since.
const rescan = 250 * time.Millisecond

// A FeedLine is one line a tap's feed sent (newline left out), or with
// Line nil, the news that the feed ended (the tap exited).
type FeedLine struct {
	Feed string // the feed's socket
	Line []byte
}

// Follow reads the live feed of every tap in dir (each a unix socket,
// NAME.sock), and of every tap that starts there later, until ctx ends,
// handing each line to lines, and the end of each feed. A line longer than
// a recording's longest (maxLine) is skipped. Follow returns when ctx ends.
func Follow(ctx context.Context, dir string, lines chan<- FeedLine) {
	following := map[string]bool{}
	gone := make(chan string, 16)
	tick := time.NewTicker(rescan)
	defer tick.Stop()
	for {
		socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
		for _, s := range socks {
			if following[s] {
				continue
			}
			if conn, err := (&net.Dialer{}).DialContext(ctx, "unix", s); err == nil {
				following[s] = true
				go readFeed(ctx, conn, s, lines, gone)
			}
		}
		select {
		case <-ctx.Done():
			return
		case s := <-gone:
			delete(following, s)
		case <-tick.C:
		}
	}
}

// readFeed hands conn's lines to lines until it ends or ctx does, then
// says so on gone.
func readFeed(ctx context.Context, conn net.Conn, path string, lines chan<- FeedLine, gone chan<- string) {
	defer func() {
		if send(ctx, lines, FeedLine{Feed: path}) {
			select {
			case gone <- path:
			case <-ctx.Done():
			}
		}
	}()
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	r := bufio.NewReaderSize(conn, 64<<10)
	for {
		line, err := readLine(r)
		if len(line) > 0 && !send(ctx, lines, FeedLine{Feed: path, Line: bytes.Clone(line)}) {
			return
		}
		if err != nil {
			return
		}
	}
}

// send hands l to lines, unless ctx ends first.
func send(ctx context.Context, lines chan<- FeedLine, l FeedLine) bool {
	select {
	case lines <- l:
		return true
	case <-ctx.Done():
		return false
	}
}
