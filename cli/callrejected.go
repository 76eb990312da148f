package cli

import (
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// resolve is reg.Resolve, and for a name it finds no route for, the tool a
// client rejects for its x-mcp-header annotations (model.MarkRejected):
// refused (a usage error saying why), unless --no-validate, which calls it
// as its server listed it, to test the server's own checks.
func (c *caller) resolve(reg *model.Registry, name string) (rt model.Route, how string, refused, err error) {
	rt, how, err = reg.Resolve(name)
	if err == nil {
		return rt, how, nil, nil
	}
	row, reason, ok := rejectedRow(c.snap, name)
	if !ok {
		return rt, how, nil, err
	}
	if c.validate {
		return rt, "", usagef("%s on %s is not registered: %s; nothing was sent (--no-validate calls it anyway)",
			c.san(row.Wire), c.san(row.Server), c.san(reason)), nil
	}
	return row, "wire name of a tool clients reject, called under --no-validate", nil, nil
}

// rejectedRow returns the route to the row whose wire name is name and
// that is Rejected, with why, when exactly one server lists such a row.
func rejectedRow(snap *surface.Snapshot, name string) (rt model.Route, reason string, ok bool) {
	found := 0
	for si := range snap.Servers {
		sv := &snap.Servers[si]
		if !sv.Listed {
			continue
		}
		for i, t := range sv.Tools {
			if t.NameOK && t.Name == name && t.Rejected != "" {
				found++
				rt, reason = model.Route{Name: name, Server: sv.Label(), Wire: name, Index: i}, t.Rejected
				break
			}
		}
	}
	return rt, reason, found == 1
}
