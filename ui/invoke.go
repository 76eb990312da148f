package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// callTimeout bounds an interactive call.
const callTimeout = 60 * time.Second

// An invoke is the argument editor for one call through the registry.
type invoke struct {
	e      *env
	policy string
	row    model.Outcome
	route  model.Route
	editor textarea.Model
	err    string
}

// callDoneMsg is the end of one call, successful or not.
type callDoneMsg struct {
	policy string
	row    model.Outcome
	route  model.Route
	result loader.CallResult
	err    error
}

// openInvoke opens the editor on the selected row, routed the way the
// registry routes the row's registered name.
func (m *Model) openInvoke() {
	r, ok := m.selected()
	if !ok {
		return
	}
	o, t, ok := m.surface.outcomeAt(r)
	if !ok || o.Name == "" {
		return
	}
	route, ok := m.surface.reg.Lookup(o.Name)
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.SetValue(model.ArgumentSkeleton(t.InputSchema))
	inv := &invoke{e: m.env, policy: m.activePolicy().Name, row: o, route: route, editor: ed}
	if !ok {
		inv.err = fmt.Sprintf("%s is not in the registry under %s: nothing to call", o.Name, inv.policy)
	}
	inv.SetSize(m.c.width, m.c.height)
	m.invoke = inv
}

func (v *invoke) focus() tea.Cmd { return v.editor.Focus() }

// SetSize fits the editor to a screen of width × height.
func (v *invoke) SetSize(width, height int) {
	v.editor.SetWidth(max(20, min(90, width-8)))
	v.editor.SetHeight(max(3, min(14, height-14)))
}

func (v *invoke) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Send, k.Cancel}
}

func (v *invoke) FullHelp() [][]key.Binding { return [][]key.Binding{v.ShortHelp()} }

// Update edits the arguments.
func (v *invoke) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	v.editor, cmd = v.editor.Update(msg)
	return cmd
}

// updateInvoke sends the call, closes the editor, or edits.
func (m *Model) updateInvoke(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.keys
	switch {
	case key.Matches(msg, k.Cancel):
		m.invoke = nil
		return nil
	case key.Matches(msg, k.Send):
		inv := m.invoke
		if inv.route.Name == "" {
			return nil
		}
		args := json.RawMessage(strings.TrimSpace(inv.editor.Value()))
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		if !json.Valid(args) {
			inv.err = "arguments are not valid JSON"
			return nil
		}
		if m.calling != nil {
			inv.err = "a call is running: esc here, then esc again cancels it"
			return nil
		}
		m.invoke = nil
		var cmd tea.Cmd
		m.calling, cmd = m.call(inv, args)
		m.pane = paneResult
		return cmd
	}
	return m.invoke.Update(msg)
}

// View draws the editor in its box.
func (v *invoke) View() string {
	c := v.e.c
	s := c.styles
	san := model.Sanitize
	var title []string
	title = append(title, s.Header.Render("invoke ")+s.RenamedText.Render(san(v.row.Name))+s.Muted.Render(" under "+v.policy))
	switch {
	case v.route.Name == "":
	case v.route.Server == v.row.Server && v.route.Index == v.row.Index:
		title = append(title, fmt.Sprintf("route: %s → %s as %s", san(v.route.Name), san(v.route.Server), s.In.Render(san(v.route.Wire))))
	default:
		title = append(title, s.WarnText.Render(fmt.Sprintf("%s's %s is unreachable: %s routes to %s as %s",
			san(v.row.Server), san(v.row.Wire), san(v.route.Name), san(v.route.Server), san(v.route.Wire))))
	}
	if v.err != "" {
		title = append(title, s.ErrorText.Render(c.text(v.err)))
	}
	title = append(title, s.Muted.Render("arguments (JSON):"))
	keys := help.New()
	keys.Styles.ShortKey, keys.Styles.ShortDesc, keys.Styles.ShortSeparator = s.Muted, s.Muted, s.Muted
	return s.Overlay.Render(lipgloss.JoinVertical(lipgloss.Left, append(title, v.editor.View(),
		keys.ShortHelpView(v.ShortHelp()))...))
}

// overlay draws the editor over the screen.
func (v *invoke) overlay() string {
	c := v.e.c
	return lipgloss.Place(c.width, c.height, lipgloss.Center, lipgloss.Center, v.View(),
		lipgloss.WithWhitespaceChars(" "))
}
