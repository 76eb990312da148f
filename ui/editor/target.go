package editor

import "github.com/mcplens/mcplens/model"

// A Target is what a call is placed under: the policy, the registry's row
// the call was opened on, and the route the registry gives the row's
// registered name (which may reach another server's tool). The editor
// edits the arguments of one; a call placed again from the history has
// one without an editor.
type Target struct {
	Policy string
	Row    model.Outcome
	Route  model.Route
}
