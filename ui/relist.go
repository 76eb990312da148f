package ui

import (
	"bytes"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
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

// A relistedMsg carries how server's list number list differs from the
// list before it.
type relistedMsg struct {
	server, list int
	diff         model.PinDiff
}

// listSize is the bytes of the rows of tools, as listed.
func listSize(tools []model.Tool) int {
	n := 0
	for _, t := range tools {
		n += len(t.Raw)
	}
	return n
}

// relisted records that server i now lists cur, which replaces the list
// it showed: small lists are compared at once, large ones marked for
// diffRelists.
func (s *surface) relisted(i int, cur []model.Tool, size int) {
	sv := &s.servers[i]
	sv.lists++
	if sv.size+size < asyncBytes {
		sv.relisted, sv.prev = relistDiff(sv.tools, cur), nil
		return
	}
	sv.relisted, sv.prev = model.PinDiff{}, sv.tools
}

// sameList reports whether a and b are the same list, not a copy: the
// loader sends a server's Ready event again, with the list it holds, when
// only its protocol findings changed, and the marks of the last re-listing
// stay.
func sameList(a, b []model.Tool) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// diffRelists returns the commands comparing each server's newest list
// with the one before it, where that is pending and no comparison of the
// server is running; nil when there is none.
func (m Model) diffRelists() tea.Cmd {
	var cmds []tea.Cmd
	for i := range m.surface.servers {
		sv := &m.surface.servers[i]
		if sv.prev == nil || sv.diffing != 0 {
			continue
		}
		i, list, old, cur := i, sv.lists, sv.prev, sv.tools
		sv.diffing = list
		cmds = append(cmds, func() tea.Msg {
			return relistedMsg{server: i, list: list, diff: relistDiff(old, cur)}
		})
	}
	return tea.Batch(cmds...)
}

// adoptRelisted keeps a comparison that is still about the newest list,
// reporting whether the servers view must be laid out again.
func (s *surface) adoptRelisted(msg relistedMsg) bool {
	sv := &s.servers[msg.server]
	if sv.diffing == msg.list {
		sv.diffing = 0
	}
	if msg.list != sv.lists || sv.prev == nil {
		return false // a newer list arrived, or the server failed
	}
	sv.relisted, sv.prev = msg.diff, nil
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
