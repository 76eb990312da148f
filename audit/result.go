package audit

import (
	"time"

	"github.com/mcplens/mcplens/mcpsession"
)

// A Finding is one departure of a server from a check.
type Finding struct {
	Check   string // the Check's ID
	Level   Level
	Section string
	// Subject is what the finding is on: a tool, resource or prompt name,
	// a method; "" for the server as a whole. Server-supplied: sanitize
	// before showing.
	Subject string
	Message string
	// Evidence are the frames that prove it, as they crossed the wire: the
	// request and the answer, or the HTTP exchange (request line, headers,
	// body; status, headers, body), at most maxEvidence of them.
	Evidence []mcpsession.Frame
}

// A Result is the audit of one server.
type Result struct {
	Server    string
	Transport string // "stdio" or "http"
	// Asked is the revision the audit asked for; Revision the one the
	// server answered ("" when initialize failed).
	Asked, Revision string
	// ServerInfo is the server's name and version as it gave them.
	ServerInfo string
	// Line and Col are the server's declaration in its config (0: none).
	Line, Col int
	Findings  []Finding
	// Passed lists the checks probed that found nothing; Skipped those
	// that did not apply (a capability not declared, another transport),
	// with why.
	Passed  []string
	Skipped map[string]string
	// Frames is every frame of the audit, for the reader.
	Frames []mcpsession.Frame
	// Elapsed is how long the audit took.
	Elapsed time.Duration
}

// Worst returns the highest level of the findings, false when none.
func (r Result) Worst() (Level, bool) {
	worst := Level(0)
	for _, f := range r.Findings {
		worst = max(worst, f.Level)
	}
	return worst, worst > 0
}
