package ui

import tea "charm.land/bubbletea/v2"

// Run runs cmd, and the commands of every batch it returns, in turn, and
// returns their messages.
func Run(cmd tea.Cmd) []tea.Msg { return run(cmd) }
