package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// A logView is the log pane: the log messages of every server or of one,
// newest last. It follows the newest messages until it is scrolled up, and
// again once scrolled back to the end.
type logView struct {
	e             *env
	width, height int
	msgs          map[string][]loader.LogMessage
	lost          map[string]int
	// only is the index of the server shown, or -1 for all of them: the
	// level key then asks that server alone.
	only  int
	shown []loader.LogMessage // in time order, merged when they change
	follow
	// level is the index in loader.LogLevels of the level last asked
	// for, -1 before any.
	level int
	// status says which servers were asked for the level, for the footer.
	status string
}

// logLevelMsg reports the servers asked for a level (logging/setLevel).
type logLevelMsg struct {
	level        string
	asked, apart []string // apart: the servers that refused or failed
}

func newLogView(e *env) logView {
	return logView{e: e, msgs: map[string][]loader.LogMessage{}, lost: map[string]int{}, level: -1, only: -1}
}

func (v *logView) SetSize(width, height int) { v.width, v.height = width, height }

// refresh takes a fresh copy of the servers' log messages, and merges the
// messages shown once for all of them.
func (v *logView) refresh(servers ...string) {
	b := v.e.can.logs
	if b == nil {
		return
	}
	for _, server := range servers {
		v.msgs[server], v.lost[server] = b.Logs(server)
	}
	v.shown = v.merged()
}

// merged returns the messages shown, in time order.
func (v *logView) merged() []loader.LogMessage {
	if v.only >= 0 {
		return v.msgs[v.e.live.label(v.only)]
	}
	return byTime(v.e.live.labels(), v.msgs, func(m loader.LogMessage) time.Time { return m.At })
}

// scope is the servers shown: one label, or every one.
func (v *logView) scope() []string {
	if v.only >= 0 {
		return []string{v.e.live.label(v.only)}
	}
	return v.e.live.labels()
}

// takes reports whether msg is a key of the pane.
func (v *logView) takes(msg tea.KeyPressMsg) bool {
	return isMove(msg, v.e.c.keys) || key.Matches(msg, v.e.c.keys.LogLevel, v.e.c.keys.LogServer)
}

// Update scrolls the pane, or asks the servers that log for the next
// level.
func (v *logView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case logLevelMsg:
		v.status = "log level " + msg.level + ": " + listOrNone(msg.asked)
		if len(msg.apart) > 0 {
			v.status += " (failed: " + strings.Join(msg.apart, ", ") + ")"
		}
		return nil
	case tea.KeyPressMsg:
		if key.Matches(msg, v.e.c.keys.LogLevel) {
			v.level = (v.level + 1) % len(loader.LogLevels)
			return v.setLevel(loader.LogLevels[v.level])
		}
		if key.Matches(msg, v.e.c.keys.LogServer) {
			if v.only++; v.only >= len(v.e.live.snap.Servers) {
				v.only = -1
			}
			v.back = false
			v.shown = v.merged()
			return nil
		}
		v.scroll(msg, v.e.c.keys, len(v.shown), v.height-1)
	}
	return nil
}

// setLevel returns the command that asks every server shown that declared
// the logging capability for level.
func (v *logView) setLevel(level string) tea.Cmd {
	b := v.e.can.logs
	var servers []string
	for _, sv := range v.e.live.snap.Servers {
		if slices.Contains(sv.Facts.Capabilities, "logging") && slices.Contains(v.scope(), sv.Label()) {
			servers = append(servers, sv.Label())
		}
	}
	if b == nil || len(servers) == 0 {
		v.status = "log level " + level + ": no server declares logging"
		return nil
	}
	v.status = "log level " + level + ": asking " + strings.Join(servers, ", ")
	return func() tea.Msg {
		msg := logLevelMsg{level: level}
		for _, s := range servers {
			if b.SetLogLevel(s, level) != nil {
				msg.apart = append(msg.apart, s)
			} else {
				msg.asked = append(msg.asked, s)
			}
		}
		return msg
	}
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (v *logView) ShortHelp() []key.Binding {
	k := v.e.c.keys
	return []key.Binding{k.Up, k.Down, k.LogServer, k.LogLevel, k.Logs, k.Client}
}

func (v *logView) FullHelp() [][]key.Binding {
	k := v.e.c.keys
	return tailHelp(k, k.LogServer, k.LogLevel, k.Logs)
}

func (v *logView) View() string {
	c := v.e.c
	s := c.styles
	start, end := v.window(len(v.shown), v.height-1)
	scope := "all servers"
	if v.only >= 0 {
		scope = model.Sanitize(v.e.live.label(v.only))
	}
	info := " " + scope + " · " + strconv.Itoa(len(v.shown)) + " messages"
	if lost := v.sumLost(v.scope()...); lost > 0 {
		info += " · " + strconv.Itoa(lost) + " older dropped"
	}
	if v.level >= 0 {
		info += " · level " + loader.LogLevels[v.level]
	}
	title := s.PaneTitle.Render("LOG") + s.Muted.Render(info)
	return tailView(c, title, v.height, v.shown[start:end], logLine)
}

// sumLost is how many older messages of the servers were dropped.
func (v *logView) sumLost(servers ...string) int {
	n := 0
	for _, s := range servers {
		n += v.lost[s]
	}
	return n
}

// logLine is one log message: time, server, level (coloured by severity),
// logger and the data, masked and escaped.
func logLine(c common, m loader.LogMessage) string {
	s := c.styles
	head := m.At.Format("15:04:05.000") + " " + model.Sanitize(m.Server)
	level := s.Muted
	switch slices.Index(loader.LogLevels, m.Level) {
	case -1, 0, 1:
	case 2:
		level = s.Text
	case 3:
		level = s.WarnText
	default:
		level = s.ErrorText
	}
	line := s.Muted.Render(head) + " " + level.Render(fmt.Sprintf("%-9s", model.Sanitize(m.Level)))
	if m.Logger != "" {
		line += " " + s.Muted.Render(c.quote(cut(c, m.Logger, c.width))+":")
	}
	return line + " " + c.quote(cut(c, m.Data, 4*c.width))
}

// toggleLogs opens the log pane, or closes it when open.
func (m *Model) toggleLogs() {
	if m.pane == paneLog {
		m.pane = paneDetail
		return
	}
	m.pane = paneLog
	m.logs.refresh(m.live.labels()...)
}

// logStatus is the footer's note on the level last asked for, while the
// log pane is open.
func (m *Model) logStatus() string {
	if m.pane != paneLog {
		return ""
	}
	return m.logs.status
}
