package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/model"
)

// A collisionsView lists every name claimed by more than one route under
// the active policy: the class, who won and who lost and why.
type collisionsView struct {
	list
	// lines are the collisions of reg, the registry they were read from.
	lines []collisionLine
	reg   *model.Registry
}

// A collisionLine is one line of the collisions view: a collision's
// heading (member -1) or one of the rows that claimed its name.
type collisionLine struct {
	collision *model.Collision
	member    int
}

func (v *collisionsView) Update(msg tea.Msg) tea.Cmd {
	v.moveKey(msg, len(v.lines))
	return nil
}

// refresh reads the active registry's collisions when it changed.
func (v *collisionsView) refresh() tea.Cmd {
	if reg := v.e.live.reg; reg != v.reg {
		v.lines, v.reg = collisionLines(reg), reg
	}
	return nil
}

// collisionLines flattens reg's collisions, grouped by class in the order
// the classes are declared.
func collisionLines(reg *model.Registry) []collisionLine {
	all := reg.Collisions()
	var lines []collisionLine
	for class := model.CollisionClass(0); class <= model.CollisionOther; class++ {
		for i := range all {
			c := &all[i]
			if c.Class != class {
				continue
			}
			lines = append(lines, collisionLine{collision: c, member: -1})
			for j := range c.Rows {
				lines = append(lines, collisionLine{collision: c, member: j})
			}
		}
	}
	return lines
}

func (v *collisionsView) selected() (ref, bool) {
	if c := v.sc.cursor; c < len(v.lines) && v.lines[c].member >= 0 {
		o := v.lines[c].collision.Rows[v.lines[c].member]
		return v.e.live.refOf(o.Server, o.Index)
	}
	return ref{}, false
}

func (v *collisionsView) View() string {
	e := v.e
	s := e.c.styles
	lines := v.lines
	head := fmt.Sprintf("  COLLISIONS under %s: names claimed by more than one row", e.activePolicy().Name)
	sw := max(8, min(20, v.width/8))
	ww := max(12, min(40, v.width/4))
	return v.draw(head, len(lines), func(i int) string {
		l := lines[i]
		c := l.collision
		if l.member < 0 {
			return s.Section.Render(model.Sanitize(c.Name)) + "  " + s.WarnText.Render(c.Class.String()) +
				s.Muted.Render(fmt.Sprintf("  %d rows", len(c.Rows)))
		}
		o := c.Rows[l.member]
		verdict := s.ErrorText.Render("lost")
		if l.member == c.Winner {
			verdict = s.OKText.Render("won ")
		}
		return "    " + verdict + "  " + cell(model.Sanitize(o.Server), sw) + " " + cell(model.Sanitize(o.Wire), ww) + " " +
			e.c.outcomeStyle(o.Kind).Render(model.Sanitize(outcomeText(o)))
	})
}
