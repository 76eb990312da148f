package ui

// The roots editor: O opens, over the screen, the folders roots/list is
// answered with, one a line; ctrl+s checks them and hands them to the
// backend, which tells the servers whose client declares roots.listChanged.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
)

// A rootsEditor is the open roots editor.
type rootsEditor struct {
	text textarea.Model
	// problem says why the folders were not applied.
	problem string
	// applying is set while the backend takes the folders.
	applying bool
}

// rootsSetMsg is the end of applying the editor's folders: the folders,
// the servers told, whether they differed from the ones before, or why
// they were refused.
type rootsSetMsg struct {
	dirs, told []string
	changed    bool
	err        error
}

// openRoots opens the editor on the roots answered now; a backend whose
// roots cannot change says so in the footer.
func (m *Model) openRoots() tea.Cmd {
	r := m.can.roots
	if r == nil {
		m.say("roots: this session cannot change them")
		return nil
	}
	t := textarea.New()
	t.ShowLineNumbers = false
	t.Placeholder = "one folder a line"
	t.SetWidth(max(20, min(76, m.c.width-8)))
	t.SetHeight(max(3, min(8, m.c.height-12)))
	t.SetValue(strings.Join(r.Roots(), "\n"))
	m.rootsEd = &rootsEditor{text: t}
	return m.rootsEd.text.Focus()
}

// updateRoots takes a key while the editor is open: esc cancels it,
// ctrl+s applies the folders, any other key edits them.
func (m *Model) updateRoots(msg tea.KeyPressMsg) tea.Cmd {
	ed, k := m.rootsEd, m.c.keys
	switch {
	case ed.applying:
		return nil
	case key.Matches(msg, k.Dismiss):
		m.rootsEd = nil
		return nil
	case key.Matches(msg, k.ApplyRoots):
		ed.applying, ed.problem = true, ""
		return applyRoots(m.can.roots, ed.text.Value())
	}
	var cmd tea.Cmd
	ed.text, cmd = ed.text.Update(msg)
	return cmd
}

// applyRoots is the command that checks the folders of text and, when
// every one is an existing folder, gives them to r.
func applyRoots(r rooter, text string) tea.Cmd {
	return func() tea.Msg {
		dirs, err := rootDirs(text)
		if err != nil {
			return rootsSetMsg{err: err}
		}
		before := r.Roots()
		return rootsSetMsg{dirs: dirs, told: r.SetRoots(dirs), changed: !slices.Equal(before, dirs)}
	}
}

// rootsDone closes the editor and says in the footer what applying did,
// or keeps it open with what was wrong.
func (m *Model) rootsDone(msg rootsSetMsg) {
	if m.rootsEd == nil {
		return
	}
	if msg.err != nil {
		m.rootsEd.applying, m.rootsEd.problem = false, msg.err.Error()
		return
	}
	m.rootsEd = nil
	what := "unchanged"
	if msg.changed {
		what = "list_changed sent to " + count(len(msg.told), "server")
	}
	m.say(fmt.Sprintf("roots: %s, %s", count(len(msg.dirs), "folder"), what))
}

// rootDirs reads the editor's text: one folder a line, blank lines left
// out, ~ standing for the home folder, each made absolute (from the
// working directory) and kept once. Every one must be an existing folder:
// the error names each that is not.
func rootDirs(text string) ([]string, error) {
	var dirs []string
	var problems []error
	for line := range strings.Lines(text) {
		p := strings.TrimSpace(line)
		if p == "" {
			continue
		}
		if p == "~" || strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				p = filepath.Join(home, p[1:])
			}
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			problems = append(problems, fmt.Errorf("%q: %w", p, err))
			continue
		}
		switch fi, err := os.Stat(abs); {
		case err != nil:
			problems = append(problems, fmt.Errorf("%q is not an existing folder", abs))
		case !fi.IsDir():
			problems = append(problems, fmt.Errorf("%q is a file, not a folder", abs))
		case !slices.Contains(dirs, abs):
			dirs = append(dirs, abs)
		}
	}
	return dirs, errors.Join(problems...)
}

// rootsOverlay draws the editor over body when it is open.
func (m *Model) rootsOverlay(body string) string {
	ed := m.rootsEd
	if ed == nil {
		return body
	}
	s, k := m.c.styles, m.c.keys
	inner := kit.BoxInner(m.c.width)
	head := []string{s.Header.Render("roots") + s.Muted.Render("  the folders roots/list is answered with, one a line"), ""}
	var foot []string
	if ed.problem != "" {
		// Each folder refused on lines of its own, wrapped to the editor.
		for _, p := range strings.Split(ed.problem, "\n") {
			for _, w := range strings.Split(ansi.Wrap(model.Sanitize(p), inner, "/"), "\n") {
				foot = append(foot, s.ErrorText.Render(w))
			}
		}
	}
	if ed.applying {
		foot = append(foot, s.Muted.Render(m.spin+" applying…"))
	}
	foot = append(foot, "", s.Muted.Render("relative paths are taken from the working directory; ~ is your home"),
		kit.BoxKeys(s.Muted, []key.Binding{k.ApplyRoots, k.Dismiss}, inner))
	ed.text.SetWidth(max(10, min(76, inner)))
	ed.text.SetHeight(max(1, min(8, kit.BoxRoom(m.c.height)-len(head)-len(foot))))
	return lipgloss.Place(m.c.width, m.c.height, lipgloss.Center, lipgloss.Center,
		kit.Box(s.box(), head, strings.Split(ed.text.View(), "\n"), foot, ed.text.Line(), m.c.width, m.c.height), lipgloss.WithWhitespaceChars(" "))
}

// rootsHeader is the header's note of the roots answered, by their last
// element ("· roots: api, web"), "" when there are none or the backend
// cannot say.
func (m *Model) rootsHeader() string {
	r := m.can.roots
	if r == nil {
		return ""
	}
	dirs := r.Roots()
	if len(dirs) == 0 {
		return ""
	}
	names := make([]string, 0, 2)
	for _, d := range dirs[:min(2, len(dirs))] {
		names = append(names, model.Sanitize(filepath.Base(d)))
	}
	text := strings.Join(names, ", ")
	if len(dirs) > 2 {
		text += fmt.Sprintf(" +%d", len(dirs)-2)
	}
	return m.c.styles.HeaderMuted.Render(" · roots: " + text)
}
