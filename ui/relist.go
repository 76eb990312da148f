package ui

import (
	"bytes"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A server that re-lists after tools/list_changed has its rows marked with
// how the new list differs from the one before (relisted). Comparing two
// lists pins both: canonical JSON and a hash per tool, some 170 ms for two
// lists of 6 MB. A server flooding list_changed with lists that size
// re-lists ten times a second; done in Update, that left no time for keys.
// So rows whose bytes did not change are matched by bytes and not pinned,
// and lists above asyncBytes are compared by a command, off the goroutine
// that reads keys, one comparison per server at a time: lists that
// arrive meanwhile are compared when it ends, the newest with the one
// before it, and those in between are never compared at all.

// asyncBytes is the size of two lists from which they are compared in the
// background.
const asyncBytes = 1 << 20

// A relisting is how a server's newest list differs from the one before
// it (the snapshot's Server.Prev).
type relisting struct {
	diff model.PinDiff
	// lists is the snapshot's Server.Lists the marks are for; pending is
	// set while its comparison is to run in the background, and diffing
	// is the listing a comparison is running for, or 0.
	lists   int
	pending bool
	diffing int
}

// A relistedMsg carries how server's list number list differs from the
// list before it.
type relistedMsg struct {
	server, list int
	diff         model.PinDiff
}

// relisted notes that server i may list anew: small lists are compared at
// once, large ones marked for diffRelists.
func (s *liveState) relisted(i int) {
	sv, r := &s.snap.Servers[i], &s.relists[i]
	if sv.Lists == r.lists || sv.Prev == nil {
		return
	}
	r.lists = sv.Lists
	if surface.ListSize(sv.Prev)+sv.Size < asyncBytes {
		r.diff, r.pending = relistDiff(sv.Prev, sv.Tools), false
		return
	}
	r.diff, r.pending = model.PinDiff{}, true
}

// diffRelists returns the commands comparing each server's newest list
// with the one before it, where that is pending and no comparison of the
// server is running; nil when there is none.
func (m Model) diffRelists() tea.Cmd {
	var cmds []tea.Cmd
	for i := range m.live.relists {
		r, sv := &m.live.relists[i], &m.live.snap.Servers[i]
		if !r.pending || sv.Prev == nil || r.diffing != 0 {
			continue
		}
		i, list, old, cur := i, r.lists, sv.Prev, sv.Tools
		r.diffing = list
		cmds = append(cmds, func() tea.Msg {
			return relistedMsg{server: i, list: list, diff: relistDiff(old, cur)}
		})
	}
	return tea.Batch(cmds...)
}

// adoptRelisted keeps a comparison that is still about the newest list,
// reporting whether the servers view must be laid out again.
func (s *liveState) adoptRelisted(msg relistedMsg) bool {
	r := &s.relists[msg.server]
	if r.diffing == msg.list {
		r.diffing = 0
	}
	if msg.list != r.lists || !r.pending || s.snap.Servers[msg.server].Prev == nil {
		return false // a newer list arrived, or the server failed
	}
	r.diff, r.pending = msg.diff, false
	return true
}

// relistDiff is how cur differs from old, as model.Diff of their pins
// says, pinning only the rows that are not byte for byte the same in
// both under a name listed once in each.
func relistDiff(old, cur []model.Tool) model.PinDiff {
	count := func(tools []model.Tool) map[string]int {
		n := make(map[string]int, len(tools))
		for _, t := range tools {
			if t.NameOK {
				n[t.Name]++
			}
		}
		return n
	}
	inOld, inCur := count(old), count(cur)
	oldRaw := make(map[string][]byte, len(old))
	for _, t := range old {
		if t.NameOK && inOld[t.Name] == 1 && inCur[t.Name] == 1 {
			oldRaw[t.Name] = t.Raw
		}
	}
	same := make(map[string]bool, len(oldRaw))
	for _, t := range cur {
		if raw, ok := oldRaw[t.Name]; ok && t.NameOK && bytes.Equal(raw, t.Raw) {
			same[t.Name] = true
		}
	}
	changed := func(tools []model.Tool) []model.Tool {
		out := make([]model.Tool, 0, len(tools)-len(same))
		for _, t := range tools {
			if !t.NameOK || !same[t.Name] {
				out = append(out, t)
			}
		}
		return out
	}
	return model.Diff(model.Pin(model.Endpoint{}, changed(old)), model.Pin(model.Endpoint{}, changed(cur)))
}
