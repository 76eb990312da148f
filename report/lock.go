package report

import (
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// serverLock renders a server's comparison with its pin, marking each of
// its tools unchanged, changed or added.
func serverLock(c *surface.ServerLock, tools []Tool) *ServerLock {
	sl := &ServerLock{Status: c.Status, Changes: []ToolChange{}}
	switch c.Status {
	case "not-compared":
		return sl
	case "unpinned":
		for i := range tools {
			if tools[i].Wire != "" {
				tools[i].Lock = string(model.ToolAdded)
			}
		}
		return sl
	}
	if t := c.Diff.Endpoint; t != nil {
		sl.Endpoint = &EndpointChange{Old: t.Old.String(), New: t.New.String()}
	}
	for _, ch := range c.Diff.Tools {
		sl.Changes = append(sl.Changes, toolChange(ch))
	}
	for i := range tools {
		t := &tools[i]
		if t.Wire == "" {
			continue
		}
		t.Lock = "unchanged"
		if ch, ok := c.Diff.Tool(t.Wire); ok {
			t.Lock = string(ch.Kind)
		}
	}
	return sl
}

func toolChange(c model.ToolChange) ToolChange {
	tc := ToolChange{Wire: c.Wire, Change: string(c.Kind), OldSHA256: c.OldSHA256, NewSHA256: c.NewSHA256, Fields: []FieldChange{}}
	for _, f := range c.Fields {
		tc.Fields = append(tc.Fields, FieldChange{Path: f.Path, Op: f.Op, Old: f.Old, New: f.New})
	}
	return tc
}
