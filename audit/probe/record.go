package probe

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// mcpFrame is a frame of evidence.
type mcpFrame = mcpsession.Frame

// Bounds of what an audit keeps.
const (
	// maxEvidence is how many frames one finding carries.
	maxEvidence = 8
	// maxTapeFrames is how many frames one audit keeps; past it, the
	// newest are dropped (the findings already hold theirs).
	maxTapeFrames = 4000
	// maxTapeBytes bounds the bytes the frames of one audit hold; past it
	// each new frame keeps its first oldFrameBytes.
	maxTapeBytes  = 16 << 20
	oldFrameBytes = 1 << 10
	// maxFindingsPerCheck bounds the findings of one check (a listing of
	// 10,000 bad names is one line in the report, not 10,000).
	maxFindingsPerCheck = 20
	// maxSubject and maxMessage bound what a finding quotes of a server
	// (a name, an error message: clipText), maxServerInfo its name and
	// version: a report quotes kilobytes of a server, not megabytes.
	maxSubject    = 256
	maxMessage    = 2 << 10
	maxServerInfo = 256
)

// clipTexts cuts the server's text in r to its bounds; Run calls it once
// the config's secrets are masked, so that no secret is shown in part at
// a cut.
func clipTexts(r *audit.Result) {
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Subject, f.Message = clipText(f.Subject, maxSubject), clipText(f.Message, maxMessage)
	}
	r.ServerInfo = clipText(r.ServerInfo, maxServerInfo)
}

// clipText cuts s to about n bytes, on rune boundaries: its first three
// quarters and its last quarter around an ellipsis, as a message's end
// often says what is wrong.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, tail := n*3/4, len(s)-n/4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + fmt.Sprintf(" …(%d bytes cut)… ", tail-head) + s[tail:]
}

// A tape keeps the frames of an audit, each cut to
// mcpsession.MaxFrameBytes, at most maxTapeFrames.
type tape struct {
	server string
	mu     sync.Mutex
	frames []mcpsession.Frame
	total  int
	held   int // bytes the frames hold
}

func (t *tape) add(dir mcpsession.Direction, b []byte, junk bool, problem string) {
	t.addSized(dir, b, len(b), junk, problem)
}

// addSized keeps b, the start of a line of size bytes.
func (t *tape) addSized(dir mcpsession.Direction, b []byte, size int, junk bool, problem string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	keep := mcpsession.MaxFrameBytes
	if t.held > maxTapeBytes {
		keep = oldFrameBytes
	}
	f := mcpsession.Frame{Server: t.server, Dir: dir, At: time.Now(), Size: max(size, len(b)), Junk: junk, Problem: problem,
		Bytes: bytes.Clone(b[:min(len(b), keep)])}
	t.total++
	if len(t.frames) < maxTapeFrames {
		t.frames = append(t.frames, f)
		t.held += len(f.Bytes)
	}
}

// mark is where the frames of a probe begin.
func (t *tape) mark() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// since returns the frames from mark on, at most maxEvidence of them.
func (t *tape) since(mark int) []mcpsession.Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	if mark >= len(t.frames) {
		return nil
	}
	out := t.frames[mark:]
	return slices.Clone(out[:min(len(out), maxEvidence)])
}

// last returns the last n frames kept.
func (t *tape) last(n int) []mcpsession.Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.frames[max(0, len(t.frames)-n):])
}

func (t *tape) all() []mcpsession.Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.frames)
}

// findings collects an audit's findings and the checks it probed.
type findings struct {
	list    []audit.Finding
	probed  map[string]bool
	skipped map[string]string
	count   map[string]int
}

func newFindings() *findings {
	return &findings{probed: map[string]bool{}, skipped: map[string]string{}, count: map[string]int{}}
}

// probe records that check id was probed.
func (fs *findings) probe(id string) { fs.probed[id] = true }

// skip records why check id did not apply.
func (fs *findings) skip(id, why string) {
	if !fs.probed[id] {
		fs.skipped[id] = why
	}
}

// add records a finding of check id on subject, with its evidence.
func (fs *findings) add(id, subject, message string, evidence []mcpsession.Frame) {
	c, ok := audit.CheckNamed(id)
	if !ok {
		panic("audit: no check " + id)
	}
	fs.probed[id] = true
	delete(fs.skipped, id)
	fs.count[id]++
	if fs.count[id] > maxFindingsPerCheck {
		return
	}
	fs.list = append(fs.list, audit.Finding{Check: id, Level: c.Level, Section: c.Section,
		Subject: subject, Message: model.Sanitize(message), Evidence: evidence})
}

// result fills r's findings, passed and skipped checks, in table order.
func (fs *findings) result(r *audit.Result) {
	order := map[string]int{}
	for i, c := range audit.Checks() {
		order[c.ID] = i
	}
	slices.SortStableFunc(fs.list, func(a, b audit.Finding) int { return order[a.Check] - order[b.Check] })
	r.Findings = fs.list
	r.Skipped = fs.skipped
	for _, c := range audit.Checks() {
		if fs.probed[c.ID] && fs.count[c.ID] == 0 {
			r.Passed = append(r.Passed, c.ID)
		}
	}
	for id, n := range fs.count {
		if n > maxFindingsPerCheck {
			c, _ := audit.CheckNamed(id)
			r.Findings = append(r.Findings, audit.Finding{Check: id, Level: c.Level, Section: c.Section,
				Message: "and more findings of this check, not listed"})
		}
	}
}
