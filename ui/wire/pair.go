package wire

import (
	"strings"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
	"github.com/mcplens/mcplens/ui/reader"
)

// pairWidth is the narrowest screen that shows a request and its
// response side by side; a narrower one shows them one above the other.
const pairWidth = 120

// OpenPair returns the reader of the frame named k beside the frame it
// links to: the request on the left, its response on the right. The frame
// is selected in the pane; nil when it is no longer held or has no link.
func (w *Model) OpenPair(k Key) *reader.Model {
	for i, f := range w.shown {
		if keyOf(f) == k && w.meta[i].link >= 0 {
			w.selectFrame(i)
			return w.pairReader(i)
		}
	}
	return nil
}

// pairReader is the reader of frame i and its linked frame, side by side
// when the screen is pairWidth columns wide, else stacked, the request
// first. It draws them again at each width.
func (w *Model) pairReader(i int) *reader.Model {
	s := w.c.Styles()
	req, resp := min(i, w.meta[i].link), max(i, w.meta[i].link) // a request comes before its answer
	fq, fr := w.shown[req], w.shown[resp]
	mq, mr := w.meta[req], w.meta[resp]
	what := mq.method
	if mq.tool != "" {
		what += " " + mq.tool
	}
	title := s.Title.Render("REQUEST | RESPONSE") + " " + model.Sanitize(fq.Server) + " " + w.quote(what+" #"+mq.id)
	r := w.c.Reader(title, func() []string {
		left := append([]string{s.Section.Render("REQUEST")}, w.frameLines(fq, mq)...)
		right := append([]string{s.Section.Render("RESPONSE")}, w.frameLines(fr, mr)...)
		width := w.c.Width()
		if width < pairWidth {
			return append(append(left, ""), right...)
		}
		return sideBySide(left, right, (width-3)/2)
	})
	r.Clip, r.ClipName = string(fq.Bytes)+"\n"+string(fr.Bytes), "the request and its response"
	return r
}

// sideBySide lays left and right in two columns of width each, wrapped,
// a rule between them.
func sideBySide(left, right []string, width int) []string {
	l, _, _ := kit.Wrap(left, width)
	r, _, _ := kit.Wrap(right, width)
	out := make([]string, max(len(l), len(r)))
	for k := range out {
		a, b := "", ""
		if k < len(l) {
			a = l[k]
		}
		if k < len(r) {
			b = r[k]
		}
		out[k] = kit.Cell(a, width) + " │ " + strings.TrimRight(b, " ")
	}
	return out
}
