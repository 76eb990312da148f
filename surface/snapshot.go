package surface

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// duplicateLabel is the failure of a server whose label an earlier server
// of the config declared already: the loader connects a label once.
const duplicateLabel = "server label declared twice; connected as first declared"

// A Server is what is known of one configured server: the loader's last
// word on it.
type Server struct {
	Spec config.ServerSpec
	// Endpoint is how the server is reached, the identity a lock pins
	// (EndpointOf).
	Endpoint model.Endpoint
	State    mcpsession.State
	// Err is the failure (Failed), or a note on an unfinished listing
	// (Ready).
	Err string
	// Stderr is the tail of a failed server's stderr.
	Stderr string
	// NeedsLogin says a Failed server waits for a login; Err says how.
	NeedsLogin bool
	Protocol   string
	// ServerName and ServerVersion are the server's self-description:
	// display only, never an identity.
	ServerName, ServerVersion string
	// Facts are the rest of what the server said of itself when it
	// connected: capabilities, instructions, title, website.
	Facts mcpsession.ServerFacts
	// Tools is what the server advertised, in its order.
	Tools []model.Tool
	// Offers are its resources, templates and prompts, as last listed.
	Offers mcpsession.Offers
	// Listed reports whether the server's tools were listed: Tools is what
	// it advertised (possibly nothing).
	Listed bool
	// Faults are the protocol faults the server committed (the loader's
	// Event.Findings).
	Faults []model.Finding
	// Deadline is when a connect in progress gives up.
	Deadline time.Time
	// Size is the bytes of Tools' rows.
	Size int
	// Lists counts the listings that replaced an earlier one (after
	// tools/list_changed); Prev is the list the newest replaced, nil
	// before the first re-listing and after a failure.
	Lists int
	Prev  []model.Tool
	// HostsApps says the client the server was listed for hosts MCP Apps
	// (mcpsession.Event.HostsApps).
	HostsApps bool
}

// Label is the server's key in the config.
func (s *Server) Label() string { return s.Spec.Label }

// Info is the server's self-description, "name version", or "".
func (s *Server) Info() string {
	if s.ServerName == "" {
		return ""
	}
	return s.ServerName + " " + s.ServerVersion
}

// Partial reports whether the server's tools were listed but the listing is
// known to be incomplete: a cursor that repeats, the page cap, a relisting
// that failed. Err says why.
func (s *Server) Partial() bool { return s.Listed && s.Err != "" }

// A Snapshot is every configured server as last heard from, in config
// declaration order, with what the config file says of itself.
type Snapshot struct {
	Servers []Server
	// File holds the config file's own findings (config.Config.Findings).
	File []string
	// Redact masks the config's secrets (config.NewRedactor).
	Redact  *model.Redactor
	byLabel map[string]int
	gen     int
}

// New returns the snapshot of servers that are all connecting, but for a
// label declared a second time, which has failed.
func New(specs []config.ServerSpec, file []string) *Snapshot {
	s := &Snapshot{
		Servers: make([]Server, len(specs)),
		File:    file,
		Redact:  config.NewRedactor(specs),
		byLabel: make(map[string]int, len(specs)),
	}
	for i, spec := range specs {
		s.Servers[i] = Server{Spec: spec, Endpoint: EndpointOf(spec), State: mcpsession.Connecting}
		if _, dup := s.byLabel[spec.Label]; dup {
			s.Servers[i].State, s.Servers[i].Err = mcpsession.Failed, duplicateLabel
			continue
		}
		s.byLabel[spec.Label] = i
	}
	return s
}

// EndpointOf returns how a configured server is reached, the identity its
// pin records: its URL when it has one, else its command and arguments, as
// run (the pin keeps only their fingerprint), shown with their secrets
// masked (ServerSpec.Redacted). A lock file is meant to be committed.
func EndpointOf(spec config.ServerSpec) model.Endpoint {
	r := spec.Redacted()
	if spec.URL != "" {
		return model.Endpoint{URL: spec.URL, Shown: r.URL}
	}
	return model.Endpoint{Command: spec.Command, Args: slices.Clone(spec.Args), Shown: model.CommandLine(r.Command, r.Args)}
}

// Index returns the position of the server labelled label, the first
// declared under it.
func (s *Snapshot) Index(label string) (int, bool) {
	i, ok := s.byLabel[label]
	return i, ok
}

// Gen counts the changes Apply made: two equal generations of one snapshot
// hold the same servers.
func (s *Snapshot) Gen() int { return s.gen }

// Apply records a loader event, reporting whether it changed the snapshot.
// Wire events and events of servers the config does not declare change
// nothing, but for an event that declares its server (Event.Declare):
// that server is added, after the others. A server's Tools, Faults and Prev are replaced, never written
// to, so a shallow copy of Servers (Clone) stays as it was.
func (s *Snapshot) Apply(ev mcpsession.Event) bool {
	i, ok := s.byLabel[ev.Server]
	if !ok && ev.Declare != nil && ev.Declare.Label == ev.Server && !ev.Frames {
		i, ok = len(s.Servers), true
		s.Servers = append(s.Servers, Server{Spec: *ev.Declare, Endpoint: EndpointOf(*ev.Declare)})
		s.byLabel[ev.Server] = i
	}
	if !ok || ev.Frames {
		return false
	}
	s.gen++
	sv := &s.Servers[i]
	sv.State = ev.State
	sv.NeedsLogin = ev.NeedsLogin
	switch ev.State {
	case mcpsession.Connecting:
		sv.Deadline = ev.Deadline
	case mcpsession.Ready:
		if sv.Listed && !sameList(sv.Tools, ev.Tools) {
			sv.Lists++
			sv.Prev = sv.Tools
		}
		sv.Err = ev.Err
		sv.Protocol = ev.Protocol
		if ev.ServerName != "" {
			sv.ServerName, sv.ServerVersion, sv.Facts = ev.ServerName, ev.ServerVersion, ev.Facts
		}
		sv.Tools, sv.Size, sv.Listed = ev.Tools, ListSize(ev.Tools), true
		sv.Offers = ev.Offers
		sv.HostsApps = ev.HostsApps
		sv.Faults = ev.Findings
	case mcpsession.Failed:
		sv.Err, sv.Stderr = ev.Err, ev.Stderr
		sv.Tools, sv.Size, sv.Listed, sv.Prev = nil, 0, false, nil
		sv.Offers = mcpsession.Offers{}
		sv.Faults = ev.Findings
	case mcpsession.Disconnected:
		// Its tools leave the registry, as they leave a client's.
		sv.Err, sv.Stderr = "", ""
		sv.Tools, sv.Size, sv.Listed, sv.Prev = nil, 0, false, nil
		sv.Offers = mcpsession.Offers{}
	}
	return true
}

// sameList reports whether a and b are the same list, not a copy: the
// loader sends a server's Ready event again, with the list it holds, when
// only its protocol findings changed.
func sameList(a, b []model.Tool) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// ListSize is the bytes of the rows of tools, as listed.
func ListSize(tools []model.Tool) int {
	n := 0
	for _, t := range tools {
		n += len(t.Raw)
	}
	return n
}

// Clone returns a copy of s that later events applied to s leave alone:
// a background computation reads it while s moves on.
func (s *Snapshot) Clone() *Snapshot {
	c := *s
	c.Servers = slices.Clone(s.Servers)
	c.byLabel = maps.Clone(s.byLabel) // Apply may declare servers
	return &c
}

// Catalogues returns what the listed servers advertised, in declaration
// order: what a naming policy is applied to.
func (s *Snapshot) Catalogues() []model.Catalogue {
	cats := make([]model.Catalogue, 0, len(s.Servers))
	for i := range s.Servers {
		if sv := &s.Servers[i]; sv.Listed {
			cats = append(cats, model.Catalogue{Server: sv.Label(), Tools: sv.Tools, HostsApps: sv.HostsApps})
		}
	}
	return cats
}

// Settled reports whether every server is Ready or Failed.
func (s *Snapshot) Settled() bool {
	for _, sv := range s.Servers {
		if sv.State != mcpsession.Ready && sv.State != mcpsession.Failed && sv.State != mcpsession.Disconnected {
			return false
		}
	}
	return true
}

// Rows is how many rows the listed servers advertised, and Size their
// bytes.
func (s *Snapshot) Rows() (rows, size int) {
	for _, sv := range s.Servers {
		if sv.Listed {
			rows += len(sv.Tools)
			size += sv.Size
		}
	}
	return rows, size
}

// Collect applies a session's events to snap until every server is Ready or
// Failed, or the events end. The loader bounds each connect by its own
// timeout, so every server settles; ctx is a backstop, and when it ends
// first Collect returns its error, the servers still connecting left as
// they are.
func Collect(ctx context.Context, events <-chan mcpsession.Event, snap *Snapshot) error {
	for !snap.Settled() {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			snap.Apply(ev)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
