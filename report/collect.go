package report

import (
	"context"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
)

// Collect reads a session's events until every server of specs is Ready or
// Failed, and returns each server's state in specs order. The loader bounds
// each connect by its own timeout, so every server settles; ctx is a
// backstop, and when it ends first the servers still connecting are
// returned as they are, with ctx's error.
func Collect(ctx context.Context, events <-chan loader.Event, specs []config.ServerSpec) ([]ServerState, error) {
	states := make([]ServerState, len(specs))
	at := make(map[string]int, len(specs))
	for i, spec := range specs {
		states[i] = ServerState{Label: spec.Label, Endpoint: EndpointOf(spec), State: loader.Connecting, Config: spec.Findings}
		if _, dup := at[spec.Label]; dup {
			// The loader connects a label once, as first declared.
			states[i].State, states[i].Err = loader.Failed, "server label declared twice; connected as first declared"
			continue
		}
		at[spec.Label] = i
	}
	settled := func() bool {
		for _, st := range states {
			if st.State != loader.Ready && st.State != loader.Failed {
				return false
			}
		}
		return true
	}
	for !settled() {
		select {
		case ev, ok := <-events:
			if !ok {
				return states, nil
			}
			if i, known := at[ev.Server]; known && !ev.Frames {
				states[i].Apply(ev)
			}
		case <-ctx.Done():
			return states, ctx.Err()
		}
	}
	return states, nil
}
