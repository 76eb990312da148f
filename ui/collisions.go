package ui

import (
	"fmt"

	"github.com/mcplens/mcplens/model"
)

// A collisionLine is one line of the collisions view: a collision's
// heading (member -1) or one of the rows that claimed its name.
type collisionLine struct {
	collision *model.Collision
	member    int
}

// collisionLines flattens the active registry's collisions, grouped by
// class in the order the classes are declared.
func (s *surface) collisionLines() []collisionLine {
	if s.collided {
		return s.collisions
	}
	all := s.reg.Collisions()
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
	s.collisions, s.collided = lines, true
	return lines
}

// collisionsView lists every name claimed by more than one route under the
// active policy: the class, who won and who lost and why.
func (m Model) collisionsView(height int) string {
	s := m.c.styles
	lines := m.surface.collisionLines()
	head := fmt.Sprintf("  COLLISIONS under %s: names claimed by more than one row", m.activePolicy().Name)
	sw := max(8, min(20, m.c.width/8))
	ww := max(12, min(40, m.c.width/4))
	return m.listView(head, len(lines), m.scroll[viewCollisions], height, func(i int) string {
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
			m.outcomeStyle(o.Kind).Render(model.Sanitize(outcomeText(o)))
	})
}
