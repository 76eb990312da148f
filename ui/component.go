package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/model"
)

// A component is one part of the screen: a view, the wire pane, the
// argument editor. It draws itself at the size the root gives it, owns its
// cursor, scroll and whatever it caches, and says which keys work in it:
// the footer and the help screen are built from the focused component, so
// they cannot drift from what it does.
//
// Components are fields of the Model, updated in place through their
// pointer inside the root's Update: a Model is a value, and each one
// returned keeps its own components.
type component interface {
	SetSize(width, height int)
	// Update handles a key the root did not take.
	Update(msg tea.Msg) tea.Cmd
	View() string
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// common is what every part of the interface needs to draw itself.
type common struct {
	width, height int
	styles        Styles
	keys          KeyMap
	// redact masks the config's secrets in what is shown (redact.go).
	redact *model.Redactor
}

// An env is what the root holds and every component reads: the loaded
// surface, the active policy, the provider checks, the lock. Only the
// root's Update changes it; components read it, and keep what they derive
// from it themselves.
type env struct {
	c      common
	title  string
	client string // the client profile connected as; "" for mcplens itself
	// clientWhy says how client was chosen when the user did not choose
	// it (the config's format), for the help screen and the report; a
	// switch with c clears it.
	clientWhy string
	clients   clientSwitch
	// questions bring the questions servers ask (ask.go); nil when
	// nobody is asked.
	questions *Questions
	backend   Backend
	// can is what backend can do beyond Backend (backend.go).
	can   capabilities
	login Login // runs an OAuth login (login.go); nil: L does nothing

	live     *liveState
	policies []model.Policy
	policy   int
	profiles []model.Profile
	// profileSet indexes the provider sets v cycles through.
	profileSet int
	// pins is the --lock comparison and the report key's status (report.go).
	pins pinning
	// spin is the spinner's current frame.
	spin string
	// hist is the calls made and the history view (history.go).
	hist callHistory
	// observed are the calls a recording shows a real client made
	// (observed.go); none outside an offline recording. unkept counts
	// what the backend could not keep of them.
	observed observedCalls
	unkept   capture.Unkept
}

func (e *env) activePolicy() model.Policy { return e.policies[e.policy] }

// A view is one way of looking at the same loaded surface.
type view int

const (
	viewServers view = iota
	viewRegistry
	viewCompare
	viewCollisions
	viewFindings
	viewOffers
	viewGated
	viewCount
)

func (v view) String() string {
	return [...]string{"servers", "registry", "compare", "collisions", "findings", "resources", "gated"}[v]
}

// A listing is a view: a component with a selected row, if any, for the
// detail pane and the argument editor, and something to bring up to date
// when the surface or the policy changed.
type listing interface {
	component
	selected() (ref, bool)
	// refresh brings what the view derives up to date with the surface,
	// returning the command computing it when that is done off the draw
	// goroutine (derive.go).
	refresh() tea.Cmd
}
