package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Two views derive their rows from the whole surface: compare applies every
// policy, findings scans every name, description and schema. At 20,000
// rows that is a tenth of a second to a third of one, too long to spend on
// the goroutine that draws frames and reads keys (and, with the view open
// while servers arrive, spent again after every arrival). So they are
// always computed by a command, off that goroutine, from a snapshot of the
// surface taken when the command is made; the view says it is computing
// meanwhile, and a result for a surface that has changed since is dropped
// and computed again. One computation runs at a time: servers arriving
// while it runs cost one more, not one each. The surface's generation
// (surface.gen) counts its changes and tags each computation.

// A derived is a value computed by a command from the surface of one
// generation.
type derived[T any] struct {
	value T
	// gen is the generation value is for, running the one a command is
	// computing for; -1 for none.
	gen, running int
}

func newDerived[T any]() derived[T] { return derived[T]{gen: -1, running: -1} }

// ready reports whether the value is that of the surface of generation gen.
func (d *derived[T]) ready(gen int) bool { return d.gen == gen }

// need returns the command computing the value for generation gen, or nil
// when it is there or a computation is running: one runs at a time, and
// when it ends with a value for a surface that has changed since, the next
// starts. snapshot is called now, on the caller's goroutine, and returns
// the computation to run on another.
func (d *derived[T]) need(gen int, snapshot func() func() T) tea.Cmd {
	if d.gen == gen || d.running >= 0 {
		return nil
	}
	d.running = gen
	return deriveCmd(gen, snapshot)
}

// deriveCmd is the command computing a value for generation gen.
func deriveCmd[T any](gen int, snapshot func() func() T) tea.Cmd {
	compute := snapshot()
	return func() tea.Msg { return derivedMsg[T]{gen: gen, value: compute()} }
}

// adopt keeps a computed value when it is for generation current,
// reporting whether it did.
func (d *derived[T]) adopt(msg derivedMsg[T], current int) bool {
	if d.running == msg.gen {
		d.running = -1
	}
	if msg.gen != current {
		return false
	}
	d.value, d.gen = msg.value, msg.gen
	return true
}

// A derivedMsg carries what a derive command computed for the surface of
// generation gen.
type derivedMsg[T any] struct {
	gen   int
	value T
}

// pendingView stands in for a list view whose rows are being computed.
func (e *env) pendingView(head string, width, height int, what string) string {
	s := e.c.styles
	out := make([]string, 0, height)
	out = append(out, s.ColumnHead.Render(truncate(head, width, "")))
	out = append(out, s.Muted.Render(truncate(fmt.Sprintf("  %s %s for %d rows…", e.spin, what, e.live.rowCount()), width, "…")))
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
