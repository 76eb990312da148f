package relay

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcplens/mcplens/internal/safefile"
)

// readerQueue bounds the bytes waiting for one feed reader; beyond it
// lines are dropped for that reader and counted.
const readerQueue = 1 << 20

// Bounds on what a feed keeps for a reader that connects late: its
// opening, its first openingLines lines (at most openingBytes of them),
// and its latest recentLines lines after the opening (at most recentBytes
// of them). The lines between the two are counted, and a late reader is
// told how many it missed.
const (
	openingLines = 64
	openingBytes = 256 << 10
	recentLines  = 256
	recentBytes  = 256 << 10
)

// A Feed serves the recording's lines live on a unix socket: every reader
// that connects gets the header line, the feed's opening (its first lines,
// which hold the client's handshake and first listing, up to openingLines
// and openingBytes: a client speaks first, before a reader started with it
// can connect), a feedDropped notice of the lines passed since that were
// not kept, the latest lines (up to recentLines and recentBytes: the calls
// a client made right after its handshake), then each line from then on.
// A slow,
// gone or full reader never holds the feed up: each has a bounded queue,
// and a line that does not fit is dropped for that reader alone and
// counted (the reader is told how many before its next line). It is a
// Sink.
type Feed struct {
	path   string
	header []byte
	ln     net.Listener

	dropped atomic.Int64 // lines dropped, over all readers

	mu      sync.Mutex
	readers map[*feedReader]bool
	closed  bool
	opening [][]byte // the first lines, while kept
	held    int      // bytes in opening
	opened  bool     // the opening is complete: no more lines are kept
	recent  [][]byte // the latest lines after the opening
	recentN int      // bytes in recent
	skipped int64    // lines after the opening that recent let go
	wg      sync.WaitGroup
}

// A feedReader is one connected reader and its queue.
type feedReader struct {
	conn    net.Conn
	lines   chan []byte
	queued  atomic.Int64
	dropped atomic.Int64
}

// FeedDir returns the directory feeds' sockets are made in, creating it
// (0700) when needed: $XDG_RUNTIME_DIR/mcplens, else mcplens-UID in the
// temporary directory. A directory there that is a link, is not the
// user's, or is open to others is refused.
func FeedDir() (string, error) {
	dir := filepath.Join(os.TempDir(), "mcplens-"+strconv.Itoa(os.Getuid()))
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		dir = filepath.Join(rt, "mcplens")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || !ownedByMe(fi) {
		return "", fmt.Errorf("feed directory %s: want a directory of this user's, mode 0700", dir)
	}
	return dir, nil
}

// FeedPath returns the socket path of the feed of server in dir: the
// label's readable part (letters, digits, '.', '-' and '_' kept, at most
// 40) and the relay's pid, which tells apart two feeds of one name.
func FeedPath(dir, server string) string {
	return filepath.Join(dir, readable(server, 40)+"."+strconv.Itoa(os.Getpid())+".sock")
}

// Serve starts a feed on a unix socket at path (0600) whose readers first
// get header.
func Serve(path string, header []byte) (*Feed, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSocket != 0 {
		os.Remove(path) // a socket left by a relay that died with this pid
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("starting the feed: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	f := &Feed{path: path, header: header, ln: ln, readers: map[*feedReader]bool{}}
	f.wg.Add(1)
	go f.accept()
	return f, nil
}

// Path returns the socket's path.
func (f *Feed) Path() string { return f.path }

func (f *Feed) accept() {
	defer f.wg.Done()
	for {
		conn, err := f.ln.Accept()
		if err != nil {
			return
		}
		r := &feedReader{conn: conn, lines: make(chan []byte, 1024)}
		f.mu.Lock()
		if f.closed {
			f.mu.Unlock()
			conn.Close()
			return
		}
		f.readers[r] = true
		r.offer(f.header, &f.dropped)
		for _, line := range f.opening {
			r.offer(line, &f.dropped)
		}
		if f.skipped > 0 {
			r.offer(feedDroppedLine(f.skipped), &f.dropped)
		}
		for _, line := range f.recent {
			r.offer(line, &f.dropped)
		}
		f.wg.Add(1)
		f.mu.Unlock()
		go f.serve(r)
	}
}

// serve writes r's queue to it until it is gone or the feed closes.
func (f *Feed) serve(r *feedReader) {
	defer f.wg.Done()
	defer f.drop(r)
	for line := range r.lines {
		r.queued.Add(-int64(len(line)))
		if n := r.dropped.Swap(0); n > 0 {
			if _, err := r.conn.Write(feedDroppedLine(n)); err != nil {
				return
			}
		}
		if _, err := r.conn.Write(line); err != nil {
			return
		}
	}
}

// feedDroppedLine is the notice telling a reader that n lines were not
// given it.
func feedDroppedLine(n int64) []byte {
	return []byte(`{"t":"` + time.Now().UTC().Format(time.RFC3339Nano) + `","feedDropped":` + strconv.FormatInt(n, 10) + "}\n")
}

// drop forgets r and closes its connection.
func (f *Feed) drop(r *feedReader) {
	f.mu.Lock()
	delete(f.readers, r)
	f.mu.Unlock()
	r.conn.Close()
}

// offer queues line for r unless its queue is full.
func (r *feedReader) offer(line []byte, total *atomic.Int64) {
	if r.queued.Load()+int64(len(line)) <= readerQueue {
		select {
		case r.lines <- line:
			r.queued.Add(int64(len(line)))
			return
		default:
		}
	}
	r.dropped.Add(1)
	total.Add(1)
}

// WriteLine queues a copy of line for every reader, and keeps it for
// those to come: in the opening, or among the latest lines.
func (f *Feed) WriteLine(line []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	keep := !f.opened && len(f.opening) < openingLines && f.held+len(line) <= openingBytes
	f.opened = !keep
	line = bytes.Clone(line) // one copy, kept and shared by the readers
	if keep {
		f.opening, f.held = append(f.opening, line), f.held+len(line)
	} else {
		f.recent, f.recentN = append(f.recent, line), f.recentN+len(line)
		for len(f.recent) > recentLines || f.recentN > recentBytes {
			f.recentN -= len(f.recent[0])
			f.recent[0] = nil
			f.recent = f.recent[1:]
			f.skipped++
		}
	}
	for r := range f.readers {
		r.offer(line, &f.dropped)
	}
}

// Dropped returns how many lines readers were too slow to take, over all
// readers so far.
func (f *Feed) Dropped() int64 { return f.dropped.Load() }

// Readers returns how many readers are connected.
func (f *Feed) Readers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.readers)
}

// Close stops the feed: no new readers, and those connected get what is
// queued for them as long as they read it, then are disconnected. The
// socket file is removed.
func (f *Feed) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	err := f.ln.Close()
	for r := range f.readers {
		close(r.lines)
		// A reader that does not read must not hold Close up.
		_ = r.conn.SetWriteDeadline(time.Now().Add(time.Second))
	}
	f.mu.Unlock()
	f.wg.Wait()
	os.Remove(f.path)
	return err
}

// ownedByMe reports whether the file fi describes is the user's. On
// Windows no owner is known (safefile.Owner), so that no feed directory is
// accepted there: the tap runs without a live feed.
func ownedByMe(fi fs.FileInfo) bool {
	uid, _, ok := safefile.Owner(fi)
	return ok && uid == os.Getuid()
}
