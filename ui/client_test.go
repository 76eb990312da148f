package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// TestHeaderNamesClient: the header names the client profile the servers
// were connected as, and no client when mcplens connected as itself.
func TestHeaderNamesClient(t *testing.T) {
	specs := []config.ServerSpec{{Label: "alpha"}}
	m := ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}, Policy: "vscode"})
	if got := screen(tea.Model(m)); strings.Contains(got, "client:") {
		t.Errorf("header names a client without one:\n%s", got)
	}
	m = ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}, Policy: "vscode", Client: "vscode@1.105"})
	if got := screen(tea.Model(m)); !strings.Contains(got, "cfg.json · client: vscode@1.105 · policy: vscode") {
		t.Errorf("header does not name the client:\n%s", got)
	}
}

// reconnectBackend is a backend whose Reconnect says which servers had
// another handshake: those of differs.
type reconnectBackend struct {
	benchBackend
	differs map[string]bool
	asked   *[]string
}

func (b reconnectBackend) Reconnect(label string, h model.Handshake) bool {
	*b.asked = append(*b.asked, label+" as "+h.ClientInfo.Name)
	return b.differs[label]
}

// TestClientCycles: c switches the client: every server is asked to
// reconnect, the footer says how many do, the policy follows the client
// unless p picked one since, and C goes back.
func TestClientCycles(t *testing.T) {
	specs := []config.ServerSpec{{Label: "alpha"}, {Label: "beta"}}
	var asked []string
	b := reconnectBackend{benchBackend{events: make(chan mcpsession.Event)}, map[string]bool{"alpha": true}, &asked}
	var m tea.Model = ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: b})
	first := model.Clients()[0]
	m, _ = m.Update(ui.KeyPress("c"))
	got := screen(m)
	if !strings.Contains(got, "client: "+first.Key()+" · policy: "+first.Policy) {
		t.Errorf("after c the header does not name %s and its policy:\n%s", first.Key(), got)
	}
	if want := "reconnecting 1 of 2 servers for " + first.Key(); !strings.Contains(got, want) {
		t.Errorf("footer lacks %q:\n%s", want, got)
	}
	if want := "alpha as " + first.Handshake.ClientInfo.Name; len(asked) != 2 || asked[0] != want {
		t.Errorf("reconnects asked = %q, want both servers, %q first", asked, want)
	}
	m, _ = m.Update(ui.EventMsg(mcpsession.Event{Server: "alpha", State: mcpsession.Ready}))
	if want := "1 of 2 servers reconnected for " + first.Key(); !strings.Contains(screen(m), want) {
		t.Errorf("footer lacks %q once alpha is ready:\n%s", want, screen(m))
	}

	m, _ = m.Update(ui.KeyPress("p"))
	picked := m.(ui.Model).Policy()
	m, _ = m.Update(ui.KeyPress("c"))
	if got := m.(ui.Model).Policy(); got != picked {
		t.Errorf("policy after p then c = %s, want %s, the one p picked", got, picked)
	}
	m, _ = m.Update(ui.KeyPress("C"))
	m, _ = m.Update(ui.KeyPress("C"))
	if got := screen(m); strings.Contains(got, "client:") || !strings.Contains(got, "for mcplens") {
		t.Errorf("C twice from the second client should be mcplens as itself:\n%s", got)
	}
}

// TestHeaderKeepsClientAndPolicy: a client adopted from the config's
// format is named by its key alone, and the client and the policy stay in
// the header at every width, the rest giving way; how the client was
// chosen is said once, in the help screen, and the report names the
// client; c and C cycle on from it.
func TestHeaderKeepsClientAndPolicy(t *testing.T) {
	all := model.Clients()
	k := len(all) / 2
	c := all[k]
	specs := []config.ServerSpec{{Label: "alpha"}, {Label: "beta"}}
	why := "the config is in " + c.Name + "'s format; --client mcplens connects as mcplens"
	m := ui.New(ui.Options{Title: "a config with a long name.json", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)},
		Policy: c.Policy, Client: c.Key(), ClientWhy: why})
	for _, w := range []int{160, 80, 60} {
		got, _ := tea.Model(m).Update(tea.WindowSizeMsg{Width: w, Height: 24})
		head := strings.SplitN(screen(got), "\n", 2)[0]
		if !strings.Contains(head, "client: "+c.Key()+" · policy: "+c.Policy) {
			t.Errorf("at %d columns the header hides the client or the policy: %q", w, head)
		}
		if strings.Contains(head, "the config is in") {
			t.Errorf("at %d columns the header says how the client was chosen: %q", w, head)
		}
	}
	tall, _ := tea.Model(m).Update(tea.WindowSizeMsg{Width: 160, Height: 80})
	if help := screen(press(tall, "?")); strings.Count(help, why) != 1 {
		t.Errorf("the help screen does not say once how the client was chosen:\n%s", help)
	}
	press(tall, "?")
	if r := m.Report(); r.Client != c.Key() || r.ClientSource != why {
		t.Errorf("report client %q (%q), want %q (%q)", r.Client, r.ClientSource, c.Key(), why)
	}
	// The model's copies share their state: c, then C twice.
	for _, step := range []struct {
		key  string
		want model.Client
	}{{"c", all[k+1]}, {"C", all[k]}, {"C", all[k-1]}} {
		if got := screen(press(tea.Model(m), step.key)); !strings.Contains(got, "client: "+step.want.Key()) {
			t.Errorf("%s does not switch to %s:\n%s", step.key, step.want.Key(), got)
		}
	}
}

// TestLoginWithNothingToDo: L with no server waiting for a login says so
// in the footer, where it did nothing.
func TestLoginWithNothingToDo(t *testing.T) {
	specs := []config.ServerSpec{{Label: "alpha"}}
	var m tea.Model = ui.New(ui.Options{Title: "cfg.json", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}})
	m, cmd := m.Update(ui.KeyPress("L"))
	if cmd == nil {
		t.Fatal("L returned no command: it says nothing")
	}
	m, _ = m.Update(cmd())
	if got := screen(m); !strings.Contains(got, "no server needs a login") {
		t.Errorf("L with nothing to log in to says nothing:\n%s", got)
	}
}
