package ui

import (
	"context"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A Login runs the OAuth login of the server of the label, telling show
// the authorization URL as soon as it has one, and returns when the
// browser came back (or the login failed). main gives the interface one
// (Options.Login); without it L does nothing.
type Login func(ctx context.Context, label string, show func(url string)) error

// loginBudget bounds a login started with L: the user has this long to
// finish in the browser.
const loginBudget = 10 * time.Minute

// urlChunk is the width the authorization URL is cut to on screen: whole,
// over several lines, rather than cut off at the edge.
const urlChunk = 64

// A loginState is where a login started with L stands.
type loginState struct {
	url  string // the authorization URL, once known
	err  string // why it failed
	done bool
}

// loginMsg is a login's news: its URL, or its end (done).
type loginMsg struct {
	label, url string
	err        error
	done       bool
	next       <-chan loginMsg
}

// startLogin logs in the selected row's server when it needs a login,
// else the next server that does: the others keep working meanwhile.
func (e *env) startLogin(at ref, selected bool) tea.Cmd {
	s := e.live
	if e.login == nil || len(s.a.Servers) == 0 {
		return noted("no server needs a login")
	}
	start := 0
	if selected {
		start = at.server
	}
	n := len(s.a.Servers)
	running := ""
	for k := range n {
		i := (start + k) % n
		label := s.label(i)
		if st := s.logins[label]; !s.waitsLogin(i) || (st != nil && st.err == "") {
			if st != nil && st.err == "" && !st.done && running == "" {
				running = label
			}
			continue // running, or done and connecting again
		}
		if s.logins == nil {
			s.logins = map[string]*loginState{}
		}
		s.logins[label] = &loginState{}
		s.layout()
		return runLogin(e.login, label)
	}
	if running != "" {
		return noted("a login to " + model.Sanitize(running) + " is under way")
	}
	return noted("no server needs a login")
}

// runLogin is the command that runs one login: it reports the URL, then
// (waitLogin) the end.
func runLogin(run Login, label string) tea.Cmd {
	return func() tea.Msg {
		news := make(chan loginMsg, 2)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), loginBudget)
			defer cancel()
			err := run(ctx, label, func(u string) {
				select {
				case news <- loginMsg{label: label, url: u, next: news}:
				default:
				}
			})
			news <- loginMsg{label: label, err: err, done: true}
		}()
		return <-news
	}
}

func waitLogin(next <-chan loginMsg) tea.Cmd {
	return func() tea.Msg { return <-next }
}

// loginNews takes a login's news: the URL is shown (and offered to the
// terminal's clipboard); once logged in, the server connects again.
func (m *Model) loginNews(msg loginMsg) tea.Cmd {
	s := m.live
	st := s.logins[msg.label]
	if st == nil {
		return nil
	}
	var cmd tea.Cmd
	switch {
	case !msg.done:
		st.url = msg.url
		cmd = tea.Batch(waitLogin(msg.next), tea.SetClipboard(msg.url))
	case msg.err != nil:
		st.done, st.err = true, msg.err.Error()
	default:
		st.done = true
		delete(s.stepUps, msg.label)
		if r := m.can.retry; r != nil {
			r.Retry(msg.label)
		}
	}
	s.layout()
	m.servers.refresh()
	return cmd
}

// loginLines are the lines under server i of the login L started.
func (s *liveState) loginLines(i int) {
	st := s.logins[s.label(i)]
	switch {
	case st == nil:
		s.lines = append(s.lines, line{kind: lineNote, server: i, text: "press L to log in"})
	case st.err != "":
		s.lines = append(s.lines, line{kind: lineError, server: i, text: "login failed: " + st.err})
	case st.done:
		s.lines = append(s.lines, line{kind: lineNote, server: i, text: "logged in; connecting"})
	case st.url == "":
		s.lines = append(s.lines, line{kind: lineNote, server: i, text: "login: starting"})
	default:
		s.lines = append(s.lines, line{kind: lineNote, server: i, text: "login: finish in the browser; if it did not open, visit (also sent to the clipboard):"})
		u := model.Sanitize(st.url)
		for len(u) > 0 {
			n := min(urlChunk, len(u))
			s.lines = append(s.lines, line{kind: lineURL, server: i, text: u[:n]})
			u = u[n:]
		}
	}
}

// loginStatus is the footer's note on the logins running, "" when none is.
func (m *Model) loginStatus() string {
	running := 0
	for _, st := range m.live.logins {
		if !st.done {
			running++
		}
	}
	if running == 0 {
		return ""
	}
	return m.c.styles.WarnText.Render(fmt.Sprintf("%d login(s) waiting for the browser", running))
}

// needsLogin reports whether a server waits for a login L can start.
func (e *env) needsLogin() bool {
	return e.login != nil && (len(e.live.stepUps) > 0 ||
		slices.ContainsFunc(e.live.a.Servers, func(s surface.Verdict) bool { return s.Status == surface.NeedsLogin }))
}
