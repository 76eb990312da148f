package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// Options are what the interface is made of. Backend is required; every
// other field has a meaning when left zero, said beside it.
type Options struct {
	// Title names the config in the header.
	Title string
	// Servers are the config's servers, in its order; a backend's events
	// may declare more (a tap's).
	Servers []config.ServerSpec
	// Backend feeds the interface (backend.go).
	Backend Backend
	// ConfigFindings are what the config file says as a whole
	// (config.Config.Findings), for the findings view and the report.
	ConfigFindings []string
	// Policy names the policy shown first; "" or a name no policy has
	// leaves the default.
	Policy string
	// PolicyPicked says Policy is the user's choice, as p makes it: a
	// client the backend then shows does not change it.
	PolicyPicked bool
	// Client is the key of the client profile the servers are connected
	// as; "" is mcplens itself. ClientWhy says how it was chosen when the
	// user did not choose it ("the config is in vscode's format"), once
	// in the help screen and the report; c and C cycle on from it.
	Client, ClientWhy string
	// Lock, read from LockPath, is what each server's tools are compared
	// with (report.go); nil compares nothing.
	Lock     *model.Lock
	LockPath string
	// History is the file the calls are kept in (JSON Lines, mode 0600),
	// the calls already there read first; "" keeps them in memory. What
	// cannot be read is said in the history view: a caller that must
	// refuse such a file checks it with history.Open first.
	History string
	// Questions brings the questions servers ask during a call (ask.go);
	// nil: nobody is asked.
	Questions *Questions
	// Login runs an OAuth login (login.go); nil: L does nothing.
	Login Login
	// Auditor audits one server (audit.go); nil: A says it cannot.
	Auditor Auditor
	// Protocol names the revision forced on every server (--protocol), ""
	// for none: the header says it, and V cycles on from it.
	Protocol string
}

// New returns the interface o describes.
func New(o Options) Model {
	e := &env{
		c:         common{width: 100, height: 30, styles: DefaultStyles(true), keys: DefaultKeyMap()},
		title:     o.Title,
		backend:   o.Backend,
		can:       capabilitiesOf(o.Backend),
		questions: o.Questions,
		login:     o.Login,
		policies:  model.Policies(),
		profiles:  model.DefaultProfiles(),
		clients:   newClientSwitch(),
	}
	e.live = newLiveState(o.Servers, e.policies)
	e.live.profiles = e.profiles
	e.c.redact = e.live.snap.Redact
	m := Model{
		env:        e,
		servers:    serversView{list: list{e: e}},
		registry:   registryView{list{e: e}},
		compare:    newCompareView(e),
		collisions: collisionsView{list: list{e: e}},
		findings:   newFindingsView(e),
		offers:     newOffersView(e),
		navigation: newNavigation(e),
		wire:       newWireView(e),
		logs:       newLogView(e),
		stderr:     newStderrView(e),
		tasks:      tasksView{e: e},
		calls:      callsView{e: e},
		help:       help.New(),
		spinner:    spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	// lockChange reads the lock through e, which every copy of m shares.
	m.servers.lockChange = m.lockChange
	e.spin = m.spinner.View()
	e.live.rebuild(e.policy)
	m.layout()
	if o.History != "" {
		_ = m.openHistory(o.History) // the history view says what could not be read
	}
	if o.ConfigFindings != nil {
		m.setConfigFindings(o.ConfigFindings)
	}
	if o.PolicyPicked {
		m.pickPolicy(o.Policy)
	} else if o.Policy != "" {
		m.setPolicy(o.Policy)
	}
	if o.Client != "" || o.ClientWhy != "" {
		m.setClient(o.Client, o.ClientWhy)
	}
	if o.Lock != nil {
		m.setLock(o.LockPath, o.Lock)
	}
	m.auditing.auditor = o.Auditor
	m.clients.protocol = o.Protocol
	return m
}

// setPolicy makes the named policy active, reporting whether it exists.
func (m *Model) setPolicy(name string) bool {
	for i, p := range m.policies {
		if p.Name == name {
			m.policy = i
			m.live.rebuild(i)
			m.servers.refresh()
			return true
		}
	}
	return false
}
