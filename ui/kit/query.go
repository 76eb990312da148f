package kit

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// A Query is the line a search or a filter is typed on.
type Query struct {
	Input  textinput.Model
	Typing bool
	Text   string
}

// NewQuery returns a query line, its prompt a /.
func NewQuery() Query {
	in := textinput.New()
	in.Prompt = "/"
	return Query{Input: in}
}

// Start begins typing a new query: the one kept stays until a key
// changes the line, and enter on the empty line keeps it.
func (q *Query) Start() tea.Cmd {
	q.Typing = true
	q.Input.SetValue("")
	return q.Input.Focus()
}

// Key takes a key while typing: cancel drops the query, done keeps it,
// any other edits it. changed reports whether the query changed.
func (q *Query) Key(k tea.KeyPressMsg, cancel, done key.Binding) (cmd tea.Cmd, changed bool) {
	switch {
	case key.Matches(k, cancel):
		q.Typing = false
		q.Input.Blur()
		changed, q.Text = q.Text != "", ""
	case key.Matches(k, done):
		q.Typing = false
		q.Input.Blur()
	default:
		q.Input, cmd = q.Input.Update(k)
		changed, q.Text = q.Text != q.Input.Value(), q.Input.Value()
	}
	return cmd, changed
}
