package loader

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
)

// The bounds of a server's log messages (notifications/message): the last
// maxLogMessages are kept, at most maxLogBytes of data in all, each
// message's data cut to maxLogData bytes. A server that logs without end
// costs no more.
const (
	maxLogMessages = 500
	maxLogBytes    = 256 << 10
	maxLogData     = 4 << 10
)

// LogLevels are the levels of notifications/message, least severe first:
// what logging/setLevel takes.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// A LogMessage is one notifications/message a server sent.
type LogMessage struct {
	At     time.Time
	Server string
	Level  string
	Logger string
	// Data is the message's data as JSON text, cut to maxLogData bytes
	// (Cut says so): display only, unsanitised.
	Data string
	Cut  bool
}

// A logRing keeps a server's last log messages, and the level they were
// last asked for at. A reconnect carries it over.
type logRing struct {
	mu    sync.Mutex
	msgs  []LogMessage
	bytes int
	lost  int    // messages dropped from the front
	level string // the last level logging/setLevel set, "" when never
}

func (r *logRing) setLevel(level string) {
	r.mu.Lock()
	r.level = level
	r.mu.Unlock()
}

func (r *logRing) levelSet() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.level
}

func (r *logRing) add(m LogMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, m)
	r.bytes += len(m.Data)
	drop := 0
	for len(r.msgs)-drop > maxLogMessages || (r.bytes > maxLogBytes && drop < len(r.msgs)-1) {
		r.bytes -= len(r.msgs[drop].Data)
		drop++
	}
	if drop > 0 {
		r.lost += drop
		r.msgs = append(r.msgs[:0], r.msgs[drop:]...)
	}
}

// list returns a copy of the messages kept, oldest first, and how many
// older ones were dropped.
func (r *logRing) list() ([]LogMessage, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.msgs), r.lost
}

// onLog keeps a notifications/message and tells a view that it arrived.
func (c *conn) onLog(n mcp.JSONRPCNotification) {
	if n.Method != string(mcp.MethodNotificationMessage) {
		return
	}
	f := n.Params.AdditionalFields
	m := LogMessage{At: time.Now(), Server: c.spec.Label}
	m.Level, _ = f["level"].(string)
	m.Logger, _ = f["logger"].(string)
	if data, err := json.Marshal(f["data"]); err == nil {
		m.Data = string(data)
	}
	if len(m.Data) > maxLogData {
		n := maxLogData
		for n > 0 && !utf8.RuneStart(m.Data[n]) {
			n--
		}
		m.Data, m.Cut = m.Data[:n], true
	}
	c.logs.add(m)
	c.s.emit(mcpsession.Event{Server: c.spec.Label, Frames: true})
}

// Logs returns the log messages a server sent (notifications/message),
// oldest first, and how many older ones were dropped to keep within the
// bounds.
func (s *Session) Logs(server string) ([]LogMessage, int) {
	if c := s.conn(server); c != nil {
		return c.logs.list()
	}
	return nil, 0
}

// SetLogLevel asks a server for the log messages of level and above
// (logging/setLevel). A server that did not declare the logging
// capability is not asked: that is an error, as is a server not Ready.
// The level is asked for again when the server reconnects (Reconnect), as
// a client that set it once expects it to hold.
func (s *Session) SetLogLevel(server, level string) error {
	c := s.conn(server)
	if c == nil {
		return fmt.Errorf("setting the log level: no server %q", server)
	}
	if !slices.Contains(LogLevels, level) {
		return fmt.Errorf("setting the log level of %s: no level %q", server, level)
	}
	if err := c.setLevel(level); err != nil {
		return err
	}
	c.logs.setLevel(level)
	return nil
}

// LogLevel returns the level last set on a server with SetLogLevel, ""
// when none was.
func (s *Session) LogLevel(server string) string {
	if c := s.conn(server); c != nil {
		return c.logs.levelSet()
	}
	return ""
}

// setLevel sends logging/setLevel on this connection, or, on a stateless
// one (2026-07-28), where there is no such request, puts the level in the
// _meta of every request from now on (mcp-go's SetLevel does so for its
// own requests; the lister's carry it too).
func (c *conn) setLevel(level string) error {
	server := c.spec.Label
	c.mu.Lock()
	state, cl, caps, lister := c.state, c.client, c.ready.Facts.Capabilities, c.lister
	c.mu.Unlock()
	if state != mcpsession.Ready {
		return fmt.Errorf("setting the log level of %s: %w (%s)", server, ErrNotReady, state)
	}
	if !slices.Contains(caps, "logging") {
		return fmt.Errorf("setting the log level of %s: the server does not declare logging", server)
	}
	ctx, cancel := context.WithTimeout(c.s.ctx, c.timeout)
	defer cancel()
	req := mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevel(level)}}
	//lint:ignore SA1019 logging/setLevel is deprecated only from 2026-07-28; servers of the earlier revisions mcplens speaks use it
	if err := cl.SetLevel(ctx, req); err != nil {
		return fmt.Errorf("setting the log level of %s: %w", server, err)
	}
	if lister != nil {
		lister.level.Store(&level)
	}
	return nil
}
