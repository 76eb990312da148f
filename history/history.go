package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/internal/safefile"
)

// Limits on what a file keeps: the newest MaxRecords records, each text
// of a record (result, frame) cut to MaxText bytes.
const (
	MaxRecords = 200
	MaxText    = 32 << 10
)

// A Record is one call as it happened.
type Record struct {
	Time time.Time `json:"time"`
	// Server is the label of the server called and Tool the wire name it
	// was called by.
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Registered is the name the call was placed under, and Policy the
	// naming policy that registered it ("" headless, by wire name).
	Registered string `json:"registered,omitempty"`
	Policy     string `json:"policy,omitempty"`
	// Arguments are the call's arguments, a JSON object as sent.
	Arguments json.RawMessage `json:"arguments"`
	// Result is the response's result object; Error why the call did not
	// complete; IsError the result's isError.
	Result  json.RawMessage `json:"result,omitempty"`
	Error   string          `json:"error,omitempty"`
	IsError bool            `json:"isError,omitempty"`
	// LatencyMS runs from writing the request to reading its response.
	LatencyMS float64 `json:"latencyMs"`
	// Frames are the call's frames as they crossed, in order.
	Frames []Frame `json:"frames,omitempty"`
	// Cut says a text of the record was cut to MaxText bytes.
	Cut bool `json:"cut,omitempty"`
}

// A Frame is one JSON-RPC message of a call: "out" to the server, "in"
// from it, and its bytes as they crossed (a string: a frame cut short is
// not JSON).
type Frame struct {
	Dir  string `json:"dir"`
	Data string `json:"data"`
}

// bounded is r with each of its texts cut to MaxText bytes; a result over
// it is dropped (a cut object is not JSON) and its frame kept, cut.
func (r Record) bounded() Record {
	if !json.Valid(r.Arguments) {
		r.Arguments = nil
	}
	if !json.Valid(r.Result) {
		r.Result = nil
	}
	if len(r.Result) > MaxText {
		r.Result, r.Cut = nil, true
	}
	frames := make([]Frame, len(r.Frames))
	for i, f := range r.Frames {
		if len(f.Data) > MaxText {
			f.Data, r.Cut = f.Data[:MaxText], true
		}
		frames[i] = f
	}
	r.Frames = frames
	return r
}

// A Log is the calls of a session, oldest first, and the file that keeps
// them, if any.
type Log struct {
	path    string
	records []Record
}

// Open returns the log kept in the file at path, with the newest
// MaxRecords records already there; path "" keeps them for the session
// only. A missing file is an empty log. The file is read line by line
// within bounded.Lines' defaults (Scan); lines that are not records, and
// lines over the line limit, are skipped, and the error says how many.
func Open(path string) (*Log, error) {
	l := &Log{path: path}
	if path == "" {
		return l, nil
	}
	bad, n, err := Scan(path, bounded.Lines{}, l.Append)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return l, nil
	case err != nil:
		return l, fmt.Errorf("reading the history: %w", err)
	case bad > 0:
		return l, fmt.Errorf("reading the history %s: %d line(s) are not call records, skipped", path, bad)
	case n.Long > 0:
		return l, fmt.Errorf("reading the history: %w", n.Skipped())
	}
	return l, nil
}

// Scan reads the history file at path line by line within lim, handing f
// each record, and returns how many lines were not records (blank lines
// and lines over the line limit aside: n counts those).
func Scan(path string, lim bounded.Lines, f func(Record)) (bad int, n bounded.Count, err error) {
	n, err = lim.Each(path, func(line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if r, ok := parseRecord(line); ok {
			f(r)
		} else {
			bad++
		}
		return nil
	})
	return bad, n, err
}

// parseRecord reads one line as a record.
func parseRecord(line []byte) (Record, bool) {
	var r Record
	if json.Unmarshal(line, &r) != nil || r.Tool == "" && r.Server == "" {
		return Record{}, false
	}
	return r, true
}

// Parse reads JSON Lines of records, returning them and how many lines
// were not records (blank lines aside).
func Parse(data []byte) (records []Record, bad int) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16*MaxText)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if r, ok := parseRecord(line); ok {
			records = append(records, r)
		} else {
			bad++
		}
	}
	if sc.Err() != nil {
		bad++
	}
	return records, bad
}

// Records are the calls recorded, oldest first.
func (l *Log) Records() []Record { return l.records }

// Path is the file that keeps the log, "" for none.
func (l *Log) Path() string { return l.path }

// Last returns the newest record of a call to tool on server.
func (l *Log) Last(server, tool string) (Record, bool) {
	for i := len(l.records) - 1; i >= 0; i-- {
		if r := l.records[i]; r.Server == server && r.Tool == tool {
			return r, true
		}
	}
	return Record{}, false
}

// Append records r, bounded.
func (l *Log) Append(r Record) {
	l.records = append(l.records, r.bounded())
	if n := len(l.records); n > MaxRecords {
		l.records = l.records[n-MaxRecords:]
	}
}

// Bytes are the records as the file keeps them; the caller writes them
// with Write, off the interface's loop.
func (l *Log) Bytes() []byte { return Encode(l.records) }

// Encode is records as JSON Lines.
func Encode(records []Record) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range records {
		_ = enc.Encode(r) // a Record always encodes: its raw fields were checked JSON
	}
	return b.Bytes()
}

// Write replaces the file at path with data, mode 0600. It replaces only
// a file that holds call records (or nothing), never a link or a file of
// something else.
func Write(path string, data []byte) error {
	if path == "" {
		return nil
	}
	err := safefile.Write(path, data, safefile.Options{Mine: mine, Perm: 0o600})
	if err != nil {
		return fmt.Errorf("writing the history: %w", err)
	}
	return nil
}

// mine reports whether content is a history: empty, or call records.
func mine(content []byte) bool {
	records, bad := Parse(content)
	return bad == 0 || len(records) > 0 && bad < len(records)
}
