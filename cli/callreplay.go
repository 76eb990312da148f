package cli

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/history"
	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// readReplay reads the history file of --replay: every line a call
// record, each line within the line limit and the file, whose records are
// all kept to be replayed, within the document limit.
func readReplay(path string, limits loader.Limits) ([]history.Record, error) {
	limits = limits.WithDefaults()
	lim := bounded.Lines{Line: limits.Line, Total: limits.Document, TotalLimit: "document"}
	var records []history.Record
	bad, n, err := history.Scan(path, lim, func(r history.Record) { records = append(records, r) })
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading --replay: %w", err)
	case n.Long > 0:
		return nil, fmt.Errorf("--replay: %w", n.Skipped())
	case bad > 0:
		return nil, fmt.Errorf("--replay %s: %d line(s) are not call records", path, bad)
	case len(records) == 0:
		return nil, fmt.Errorf("--replay %s: no call records", path)
	}
	return records, nil
}

// replayed keeps the servers of cfg the records call, and says which
// records name a server cfg does not have.
func replayed(cfg *config.Config, records []history.Record) (*config.Config, error) {
	var want []string
	for _, r := range records {
		if !slices.Contains(want, r.Server) {
			want = append(want, r.Server)
		}
	}
	some := *cfg
	some.Servers = nil
	for _, s := range cfg.Servers {
		if i := slices.Index(want, s.Label); i >= 0 {
			some.Servers = append(some.Servers, s)
			want = slices.Delete(want, i, i+1)
		}
	}
	if len(want) > 0 {
		return nil, fmt.Errorf("--replay calls servers %s has not: %s", cfg.Path, model.Sanitize(fmt.Sprint(want)))
	}
	return &some, nil
}

// replay makes the calls of records in order, each on its server and
// tool with its arguments, each one's error said as it ends (exit), and
// ends with the worst exit code of them: a call that cannot be made (its
// tool is no longer advertised) counts as a failed call, and the others
// are still made.
func (c *caller) replay(path string, records []history.Record) error {
	code := exitOK
	for i, r := range records {
		rt, ok := c.route(r.Server, r.Tool)
		title := fmt.Sprintf("call %d of %d from %s → server %s, wire name %s", i+1, len(records), c.san(path), c.san(r.Server), c.san(r.Tool))
		if !ok {
			fmt.Fprintln(c.std.out, title)
			fmt.Fprintf(c.std.err, "mcplens call: server %s does not advertise %s now\n", c.san(r.Server), c.san(r.Tool))
			c.unlisted(c.std.err)
			code = max(code, exitFound)
			continue
		}
		args := r.Arguments
		if len(args) == 0 {
			args = []byte("{}")
		}
		code = max(code, exit(c.std.err, "call", c.call(rt, title, args)))
		if c.ctx.Err() != nil {
			break
		}
	}
	if code == exitOK {
		return nil
	}
	return exitWith(code)
}

// route is the route to the row of server's tools named wire.
func (c *caller) route(server, wire string) (model.Route, bool) {
	if i, ok := c.snap.Index(server); ok {
		for j, t := range c.snap.Servers[i].Tools {
			if t.NameOK && t.Name == wire {
				return model.Route{Server: server, Wire: wire, Index: j}, true
			}
		}
	}
	return model.Route{}, false
}

// unlisted says on w which servers are not in the registry, and why.
func (c *caller) unlisted(w io.Writer) { unlisted(w, c.snap) }

// unlisted writes a line for each server of snap not in the registry,
// which may hold a tool no route was found for.
func unlisted(w io.Writer, snap *surface.Snapshot) {
	for _, st := range snap.Servers {
		if !st.Listed {
			fmt.Fprintf(w, "  (server %s is not in the registry: %s %s)\n", model.Sanitize(st.Label()), st.State, model.Sanitize(snap.Redact.Text(st.Err)))
		}
	}
}

// unresolved is the usage error of a name that resolves to no route
// (err), followed by the names near it and the servers not in the
// registry.
func unresolved(err error, reg *model.Registry, name string, snap *surface.Snapshot) error {
	var after bytes.Buffer
	if near := reg.Suggest(name); len(near) > 0 {
		fmt.Fprintf(&after, "  did you mean: %s\n", model.Sanitize(strings.Join(near, ", ")))
	}
	unlisted(&after, snap)
	return &exitError{code: exitUsage, err: err, after: after.String()}
}
