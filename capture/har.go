package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/mcplens/mcplens/model"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as much of
// it as a recording fills: one entry per JSON-RPC request the client sent
// with an id, its answer as the response.

type harLog struct {
	Log struct {
		Version string      `json:"version"`
		Creator harNamed    `json:"creator"`
		Entries []*harEntry `json:"entries"`
		Comment string      `json:"comment,omitempty"`
	} `json:"log"`
}

type harNamed struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harEntry struct {
	Started  string      `json:"startedDateTime"`
	Time     float64     `json:"time"`
	Request  harRequest  `json:"request"`
	Response harResponse `json:"response"`
	Cache    struct{}    `json:"cache"`
	Timings  harTimings  `json:"timings"`
	Comment  string      `json:"comment,omitempty"`

	sent time.Time
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

// harLine is what HAR reads of a recorded line besides line's fields.
type harLine struct {
	line
	HTTP *struct {
		URL     string              `json:"url"`
		Status  int                 `json:"status"`
		Headers map[string][]string `json:"headers"`
	} `json:"http"`
}

// WriteHAR writes the recordings at paths as one HAR 1.2 log: an entry per
// request the client sent with an id (POST to the recorded URL; a stdio
// server's is mcp+stdio://LABEL), its answer as the response (status 0
// when none was recorded). Headers, URLs and bodies are masked again as
// a tap masks them (model.MaskHeader, model.RedactURL, model.MaskTokens),
// so that a recording written before a rule was added gives no secret
// away; notifications are left out.
func WriteHAR(w io.Writer, paths ...string) error {
	var h harLog
	h.Log.Version = "1.2"
	h.Log.Creator = harNamed{Name: "mcplens", Version: "tap"}
	h.Log.Entries = []*harEntry{}
	upstream := map[string]string{}
	open := map[string]*harEntry{}
	waiting := map[string]harLine{} // answers recorded before their request
	for _, path := range paths {
		err := eachLine(path, func(b []byte) {
			var l harLine
			if json.Unmarshal(b, &l) != nil || l.Server == "" {
				return
			}
			if l.Format != "" {
				upstream[l.Server] = l.Upstream
				return
			}
			if l.Frame == nil || l.Dir == "stderr" {
				return
			}
			var m message
			if json.Unmarshal(l.Frame, &m) != nil || m.ID == nil {
				return
			}
			key := l.Server + "\x00" + string(bytes.TrimSpace(m.ID))
			switch {
			case l.Dir == "c2s" && m.Method != "":
				e := newEntry(l.line, upstream[l.Server])
				if l.HTTP != nil {
					e.Request.URL, e.Request.Headers = model.RedactURL(l.HTTP.URL), harHeaders(l.HTTP.Headers)
				}
				h.Log.Entries = append(h.Log.Entries, e)
				if a, ok := waiting[key]; ok { // recorded before its request
					delete(waiting, key)
					e.answer(a)
				} else {
					open[key] = e
				}
			case l.Dir == "s2c" && m.Method == "" && open[key] != nil:
				e := open[key]
				delete(open, key)
				e.answer(l)
			case l.Dir == "s2c" && m.Method == "" && len(waiting) < maxEarly:
				waiting[key] = l
			}
		})
		if err != nil {
			return err
		}
	}
	slices.SortStableFunc(h.Log.Entries, func(a, b *harEntry) int { return a.sent.Compare(b.sent) })
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(h)
}

// newEntry starts the entry of a request frame.
func newEntry(l line, upstream string) *harEntry {
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

// eachLine calls f with each line of the recording at path.
func eachLine(path string, f func([]byte)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 64<<10)
	for first := true; ; first = false {
		b, err := readLine(r)
		if first && len(b) > 0 && !isHeader(b) {
			return fmt.Errorf("reading %s: not an mcplens tap recording", path)
		}
		if len(b) > 0 {
			f(b)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
	}
}
