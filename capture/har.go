package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/recording"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as much of
// it as a recording fills: one entry per JSON-RPC request the client sent
// with an id, its answer as the response.

type harEntry struct {
	Started  string      `json:"startedDateTime"`
	Time     float64     `json:"time"`
	Request  harRequest  `json:"request"`
	Response harResponse `json:"response"`
	Cache    struct{}    `json:"cache"`
	Timings  harTimings  `json:"timings"`
	Comment  string      `json:"comment,omitempty"`

	sent     time.Time
	key      string // its server and id
	answered bool
}

type harRequest struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	HTTPVersion string       `json:"httpVersion"`
	Cookies     []struct{}   `json:"cookies"`
	Headers     []harHeader  `json:"headers"`
	QueryString []struct{}   `json:"queryString"`
	PostData    *harPostData `json:"postData,omitempty"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int          `json:"bodySize"`
}

type harResponse struct {
	Status      int         `json:"status"`
	StatusText  string      `json:"statusText"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []struct{}  `json:"cookies"`
	Headers     []harHeader `json:"headers"`
	Content     harContent  `json:"content"`
	RedirectURL string      `json:"redirectURL"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harPostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

type harContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
}

type harTimings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// harLine is what HAR reads of a recorded line besides Line's fields.
type harLine struct {
	recording.Line
	HTTP *recording.HTTP `json:"http"`
}

// Bounds on the requests WriteHAR holds while it waits for their answers:
// past either, the oldest is written unanswered.
const (
	maxOpen      = 4096
	maxOpenBytes = 64 << 20
)

// WriteHAR writes the recordings at paths as one HAR 1.2 log: an entry per
// request the client sent with an id (POST to the recorded URL; a stdio
// server's is mcp+stdio://LABEL), its answer as the response (status 0
// when none was recorded). Headers, URLs and bodies are masked again as
// a tap masks them (model.MaskHeader, model.RedactURL, model.MaskTokens),
// so that a recording written before a rule was added gives no secret
// away; notifications are left out.
//
// It writes as it reads, each file line by line within lim: entries come
// in the order of the files given, each file's in the order its requests
// were recorded, each once its answer is read. A request waits for its
// answer while fewer than maxOpen requests and maxOpenBytes of their
// frames wait with it; past that the oldest is written unanswered. Lines
// over lim's line limit are skipped and said in skipped; a file over its
// file limit ends the log there, closed, and is the error.
func WriteHAR(w io.Writer, lim bounded.Lines, paths ...string) (skipped, err error) {
	h := &harWriter{w: bufio.NewWriterSize(w, 64<<10), open: map[string]*harEntry{},
		waiting: map[string]harLine{}, upstream: map[string]string{}}
	h.w.WriteString("{\n  \"log\": {\n    \"version\": \"1.2\",\n" +
		"    \"creator\": {\n      \"name\": \"mcplens\",\n      \"version\": \"tap\"\n    },\n    \"entries\": [")
	var skips []error
	for _, path := range paths {
		var n bounded.Count
		n, err = eachLine(lim, path, func(b []byte) error {
			if h.line(b); len(h.upstream) > MaxReadServers {
				return errServers(path)
			}
			return nil
		})
		skips = append(skips, n.Skipped())
		if err != nil {
			break
		}
	}
	h.drain(0)
	if h.entries > 0 {
		h.w.WriteString("\n    ")
	}
	h.w.WriteString("]\n  }\n}\n")
	if ferr := h.w.Flush(); err == nil {
		err = ferr
	}
	return errors.Join(skips...), err
}

// A harWriter writes a HAR log's entries as the requests they hold are
// answered, in the order they were sent.
type harWriter struct {
	w       *bufio.Writer
	entries int
	// queue holds the requests not yet written, oldest first; open those of
	// them not answered, by server and id; held the bytes of their frames.
	queue        []*harEntry
	open         map[string]*harEntry
	held         int
	waiting      map[string]harLine // answers recorded before their request
	waitingBytes int                // the bytes of their frames
	upstream     map[string]string  // the URL an HTTP server's tap proxied
}

// line reads one recorded line.
func (h *harWriter) line(b []byte) {
	var l harLine
	if json.Unmarshal(b, &l) != nil || l.Server == "" {
		return
	}
	if l.Format != "" {
		h.upstream[l.Server] = l.Upstream // "" for a stdio server
		return
	}
	if l.Frame == nil || l.Dir == recording.Stderr {
		return
	}
	var m message
	if json.Unmarshal(l.Frame, &m) != nil || m.ID == nil {
		return
	}
	key := l.Server + "\x00" + string(bytes.TrimSpace(m.ID))
	switch {
	case l.Dir == recording.ClientToServer && m.Method != "":
		e := newEntry(l.Line, h.upstream[l.Server])
		if l.HTTP != nil {
			e.Request.URL, e.Request.Headers = model.RedactURL(l.HTTP.URL), harHeaders(l.HTTP.Headers)
		}
		e.key = key
		h.queue = append(h.queue, e)
		h.held += len(l.Frame)
		if a, ok := h.waiting[key]; ok { // recorded before its request
			delete(h.waiting, key)
			h.waitingBytes -= len(a.Frame)
			h.answer(e, a)
		} else {
			h.open[key] = e
		}
	case l.Dir == recording.ServerToClient && m.Method == "" && h.open[key] != nil:
		e := h.open[key]
		delete(h.open, key)
		h.answer(e, l)
	case l.Dir == recording.ServerToClient && m.Method == "" && len(h.waiting) < maxEarly && h.waitingBytes+len(l.Frame) <= maxEarlyBytes:
		h.waiting[key] = l
		h.waitingBytes += len(l.Frame)
	}
	h.drain(maxOpen)
}

func (h *harWriter) answer(e *harEntry, l harLine) {
	e.answer(l)
	e.answered = true
	h.held += len(l.Frame)
}

// drain writes the oldest requests that are answered, and the oldest of
// all while more than keep wait (or their frames are over maxOpenBytes).
func (h *harWriter) drain(keep int) {
	for len(h.queue) > 0 && (h.queue[0].answered || len(h.queue) > keep || h.held > maxOpenBytes) {
		e := h.queue[0]
		h.queue[0] = nil
		h.queue = h.queue[1:]
		if !e.answered {
			delete(h.open, e.key)
		}
		h.held -= len(e.Request.PostData.Text) + len(e.Response.Content.Text)
		b, _ := json.MarshalIndent(e, "      ", "  ") // an entry always encodes: its texts are strings
		if h.entries > 0 {
			h.w.WriteByte(',')
		}
		h.w.WriteString("\n      ")
		h.w.Write(b)
		h.entries++
	}
}

// newEntry starts the entry of a request frame.
func newEntry(l recording.Line, upstream string) *harEntry {
	url := "mcp+stdio://" + l.Server
	if upstream != "" {
		url = model.RedactURL(upstream)
	}
	e := &harEntry{sent: l.T, Started: l.T.UTC().Format(time.RFC3339Nano)}
	e.Request = harRequest{Method: "POST", URL: url, HTTPVersion: "HTTP/1.1", Cookies: []struct{}{},
		Headers: []harHeader{}, QueryString: []struct{}{}, HeadersSize: -1, BodySize: len(l.Frame),
		PostData: &harPostData{MimeType: "application/json", Text: model.MaskTokens(string(l.Frame))}}
	e.Response = harResponse{StatusText: "no answer recorded", HTTPVersion: "HTTP/1.1", Cookies: []struct{}{},
		Headers: []harHeader{}, HeadersSize: -1, BodySize: -1, Content: harContent{MimeType: "application/json"}}
	e.Timings = harTimings{Wait: -1}
	e.Time = 0
	return e
}

// answer fills the response from the answer's frame.
func (e *harEntry) answer(l harLine) {
	ms := float64(max(l.T.Sub(e.sent), 0).Microseconds()) / 1000
	e.Time, e.Timings = ms, harTimings{Wait: ms}
	e.Response.Status, e.Response.StatusText = 200, "OK"
	e.Response.BodySize = len(l.Frame)
	e.Response.Content = harContent{Size: len(l.Frame), MimeType: "application/json", Text: model.MaskTokens(string(l.Frame))}
	if l.HTTP != nil {
		e.Response.Status, e.Response.Headers = l.HTTP.Status, harHeaders(l.HTTP.Headers)
	}
}

func harHeaders(h map[string][]string) []harHeader {
	out := []harHeader{}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[name] {
			out = append(out, harHeader{Name: name, Value: model.MaskHeader(name, v)})
		}
	}
	return out
}
