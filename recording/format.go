package recording

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"
)

const (
	// Format names the format in every recording's header line.
	Format = "mcplens-tap"
	// Version is the format's version.
	Version = 1
)

// A Dir is the direction of a frame.
type Dir string

// The directions a frame travels: client to server, server to client, and
// the server's stderr.
const (
	ClientToServer Dir = "c2s"
	ServerToClient Dir = "s2c"
	Stderr         Dir = "stderr"
)

// A Header is a recording's first line, and the first a feed's reader
// gets: what the recording is of. T is written in RFC 3339 with
// nanoseconds, in UTC.
type Header struct {
	Format   string   `json:"format"`
	Version  int      `json:"version"`
	Server   string   `json:"server"`
	T        string   `json:"t"`
	Command  []string `json:"command,omitempty"`
	Upstream string   `json:"upstream,omitempty"`
	Listen   string   `json:"listen,omitempty"`
}

// headerPrefix is how every header line begins.
var headerPrefix = []byte(`{"format":"` + Format + `"`)

// IsHeader reports whether b, the start of a file or a line, begins as a
// recording's header line.
func IsHeader(b []byte) bool { return bytes.HasPrefix(b, headerPrefix) }

// HTTP is what a recording keeps of an HTTP request or response besides
// its body (the "http" member of a frame's line).
type HTTP struct {
	Method  string      `json:"method,omitempty"`
	URL     string      `json:"url,omitempty"`
	Status  int         `json:"status,omitempty"`
	Headers http.Header `json:"headers,omitempty"`
}

// A Line is any line of a recording as a reader decodes it: a header's
// members (Format to Upstream) or a frame's. A frame is in Frame when it
// is JSON, else in Text; Cut, when set, is the size of a frame of which
// only the start is recorded, as Text. Dropped counts chunks of bytes the
// tap left out. The "http" and "sse" members a frame of an HTTP exchange
// also has are not read back.
type Line struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Server   string          `json:"server"`
	T        time.Time       `json:"t"`
	Command  []string        `json:"command"`
	Upstream string          `json:"upstream"`
	Dir      Dir             `json:"dir"`
	Frame    json.RawMessage `json:"frame"`
	Text     *string         `json:"text"`
	Cut      int             `json:"cut"`
	Dropped  int             `json:"dropped"`
}
