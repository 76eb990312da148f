//go:build !mcplens_panictest

package main

import tea "charm.land/bubbletea/v2"

// withTestHooks returns m: the hooks exist only in test builds (see
// testhooks_panic.go).
func withTestHooks(m tea.Model) tea.Model { return m }
