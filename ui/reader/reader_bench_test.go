package reader

import (
	"fmt"
	"testing"
)

// BenchmarkReaderSearch types a search into a reader of 10 000 lines
// (a call's result of 10 000 lines of text, read whole).
func BenchmarkReaderSearch(b *testing.B) {
	lines := make([]string, 10_000)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %06d: the quick brown fox jumps over the lazy dog, and then some more words to wrap", i)
	}
	r := New(Config{Styles: func() Styles { return Styles{} }}, "RESULT", func() []string { return lines })
	r.SetSize(120, 37)
	for b.Loop() {
		r.q.Text = "line 009999"
		r.find()
		r.jump(r.nearest())
	}
}
