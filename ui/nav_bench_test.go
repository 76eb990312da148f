package ui_test

import (
	"strconv"
	"testing"

	"github.com/mcplens/mcplens/ui"
)

// BenchmarkFind types one more character of a query at 200×60, frame
// included: every row's wire and registered name is matched again.
func BenchmarkFind(b *testing.B) {
	for _, rows := range benchRows {
		b.Run(strconv.Itoa(rows), func(b *testing.B) {
			m := press(loaded(rows), "/", "s", "e", "a", "r")
			b.ReportAllocs()
			for b.Loop() {
				m, _ = m.Update(ui.KeyPress("c"))
				_ = m.View()
				m, _ = m.Update(ui.KeyPress("backspace"))
			}
		})
	}
}

// BenchmarkFindFirst types the first character of a query, matched
// against every row, and clears it, frames included.
func BenchmarkFindFirst(b *testing.B) {
	for _, rows := range benchRows {
		b.Run(strconv.Itoa(rows), func(b *testing.B) {
			m := press(loaded(rows), "/")
			b.ReportAllocs()
			for b.Loop() {
				m, _ = m.Update(ui.KeyPress("s"))
				_ = m.View()
				m, _ = m.Update(ui.KeyPress("backspace"))
				_ = m.View()
			}
		})
	}
}
