package ui

import (
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
)

// A server is what the interface knows of one configured server.
type server struct {
	spec     config.ServerSpec
	state    loader.State
	err      string
	stderr   string
	protocol string
	info     string
	tools    []model.Tool
	listed   bool
	deadline time.Time // when a connect in progress gives up
	// findings are the server's protocol faults, as the loader saw them.
	findings []model.Finding
	// relisted is how the last tools/list differs from the one before it
	// (empty until the server re-lists after tools/list_changed).
	relisted model.PinDiff
	// size is the bytes of tools' rows.
	size int
	// lists counts the re-listings; prev is the list before the newest
	// while their comparison is pending, and diffing the re-listing a
	// comparison is running for, or 0 (relist.go).
	lists   int
	prev    []model.Tool
	diffing int
}

// A surface is the loaded servers and the registry the active policy builds
// from them. It is rebuilt, never patched, whenever either changes.
type surface struct {
	servers []server
	byLabel map[string]int
	// redact masks the config's secrets (config.NewRedactor).
	redact *model.Redactor
	// fileFindings are the config file's own findings (SetConfigFindings).
	fileFindings []string
	reg          *model.Registry
	// results maps a server index to its part of reg (nil until listed).
	results []*model.ServerResult
	lines   []line
	// rows indexes the selectable lines (tool rows) in lines.
	rows []int

	// The registry of each policy, computed once per change of the
	// surface.
	policies []model.Policy
	byPolicy map[int]*model.Registry

	// byServer indexes each registry of byPolicy by server (resultsOf).
	byServer map[int][]*model.ServerResult
	// gen counts the changes of the surface: what a view derives from it
	// is for one generation (derive.go).
	gen int
}

// A lineKind tells the servers view how to draw one line.
type lineKind int

const (
	lineServer lineKind = iota
	lineColumns
	lineTool
	lineNote
	lineError
	lineBlank
)

// A line is one line of the servers view, kept as structure so that only
// the visible ones are ever rendered.
type line struct {
	kind   lineKind
	server int
	// outcome indexes the server's outcomes, for lineTool.
	outcome int
	text    string
}

func newSurface(specs []config.ServerSpec, policies []model.Policy) *surface {
	s := &surface{byLabel: make(map[string]int, len(specs)), policies: policies, redact: config.NewRedactor(specs)}
	for i, spec := range specs {
		s.servers = append(s.servers, server{spec: spec, state: loader.Connecting})
		s.byLabel[spec.Label] = i
	}
	return s
}

// apply records a loader event, reporting whether the registry must be
// rebuilt.
func (s *surface) apply(ev loader.Event) bool {
	i, ok := s.byLabel[ev.Server]
	if !ok || ev.Frames {
		return false
	}
	s.invalidate()
	sv := &s.servers[i]
	sv.state = ev.State
	switch ev.State {
	case loader.Connecting:
		sv.deadline = ev.Deadline
	case loader.Ready:
		size := listSize(ev.Tools)
		if sv.listed && !sameList(sv.tools, ev.Tools) {
			s.relisted(i, ev.Tools, size)
		}
		sv.protocol = ev.Protocol
		if ev.ServerName != "" {
			sv.info = ev.ServerName + " " + ev.ServerVersion
		}
		sv.tools, sv.size = ev.Tools, size
		sv.listed = true
		sv.err = ev.Err
		sv.findings = ev.Findings
	case loader.Failed:
		sv.err = ev.Err
		sv.stderr = ev.Stderr
		sv.tools, sv.size, sv.prev = nil, 0, nil
		sv.listed = false
		sv.findings = ev.Findings
	}
	return true
}

// catalogues returns what the listed servers advertised, in declaration
// order.
func (s *surface) catalogues() []model.Catalogue {
	cats := make([]model.Catalogue, 0, len(s.servers))
	for _, sv := range s.servers {
		if sv.listed {
			cats = append(cats, model.Catalogue{Server: sv.spec.Label, Tools: sv.tools})
		}
	}
	return cats
}

// states returns each server as a report reads it, in declaration order,
// but for its Transport, which only a lock comparison reads (Model.Report).
func (s *surface) states() []report.ServerState {
	out := make([]report.ServerState, len(s.servers))
	for i, sv := range s.servers {
		out[i] = report.ServerState{
			Label:      sv.spec.Label,
			State:      sv.state,
			Err:        sv.err,
			Stderr:     sv.stderr,
			Protocol:   sv.protocol,
			ServerName: sv.info,
			Tools:      sv.tools,
			Listed:     sv.listed,
			Config:     sv.spec.Findings,
			Faults:     sv.findings,
		}
	}
	return out
}

// invalidate drops everything derived from the catalogues.
func (s *surface) invalidate() {
	s.byPolicy = nil
	s.gen++
}

// rebuild applies the policy at index i to the listed servers in
// declaration order.
func (s *surface) rebuild(i int) {
	s.reg = s.registryFor(i, s.policies[i])
	s.results = s.resultsOf(i)
	s.layout()
}

// layout flattens the servers into lines.
func (s *surface) layout() {
	s.lines = s.lines[:0]
	s.rows = s.rows[:0]
	for i, sv := range s.servers {
		if i > 0 {
			s.lines = append(s.lines, line{kind: lineBlank, server: i})
		}
		s.lines = append(s.lines, line{kind: lineServer, server: i})
		for _, f := range sv.spec.Findings {
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "config: " + f})
		}
		r := s.results[i]
		switch {
		case sv.state == loader.Failed:
			s.lines = append(s.lines, line{kind: lineError, server: i, text: sv.err})
			for _, t := range tail(sv.stderr, 4) {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: "stderr: " + t})
			}
			s.protocolLines(i)
		case r == nil:
			continue
		default:
			if r.Failed {
				s.lines = append(s.lines, line{kind: lineError, server: i, text: r.Err})
			}
			if sv.err != "" {
				s.lines = append(s.lines, line{kind: lineError, server: i, text: sv.err})
			}
			s.protocolLines(i)
			for _, n := range r.Notes {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: n})
			}
			for _, c := range sv.relisted.Tools {
				if c.Kind == model.ToolRemoved {
					s.lines = append(s.lines, line{kind: lineError, server: i, text: "removed since the previous list: " + c.Wire})
				}
			}
			if len(r.Outcomes) == 0 {
				s.lines = append(s.lines, line{kind: lineNote, server: i, text: "advertises no tools"})
				continue
			}
			s.lines = append(s.lines, line{kind: lineColumns, server: i})
			for j := range r.Outcomes {
				s.rows = append(s.rows, len(s.lines))
				s.lines = append(s.lines, line{kind: lineTool, server: i, outcome: j})
			}
		}
	}
}

// tail returns the last n non-empty lines of s.
func tail(s string, n int) []string {
	var out []string
	end := len(s)
	for i := len(s) - 1; i >= -1 && len(out) < n; i-- {
		if i == -1 || s[i] == '\n' {
			if l := s[i+1 : end]; l != "" {
				out = append([]string{l}, out...)
			}
			end = i
		}
	}
	return out
}

// protocolLines notes each protocol fault of server i under its status.
func (s *surface) protocolLines(i int) {
	sv := s.servers[i]
	for _, f := range sv.findings {
		if f.Evidence != sv.err { // a listing's note is shown already
			s.lines = append(s.lines, line{kind: lineNote, server: i, text: "protocol: " + f.Evidence})
		}
	}
}
