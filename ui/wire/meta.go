package wire

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui/kit"
	"github.com/mcplens/mcplens/ui/reader"
)

// A frameMeta is what the wire pane says of a frame besides its bytes.
type frameMeta struct {
	// method is the frame's method; for a response, its request's.
	method string
	// tool is the tool a tools/call names.
	tool string
	// id is the id as written ("" for a notification).
	id string
	// link is the index of the frame of the same server and id in the
	// other direction (a request's response, a response's request), or -1.
	link int
	// latency is, for a response, how long after its request it came
	// (a server's answer to mcplens, or mcplens's to a server).
	latency time.Duration
	// again is set on a request sent again with the answers to the
	// server's input requests (inputResponses: a multi-round request);
	// round numbers it among the rounds of its exchange, from 2, and is
	// 0 on any other frame.
	again bool
	round int
}

// A Key names one frame of the frames shown.
type Key struct {
	server string
	at     time.Time
	dir    mcpsession.Direction
	size   int
}

func keyOf(f mcpsession.Frame) Key { return Key{f.Server, f.At, f.Dir, f.Size} }

// A metaCache keeps what each frame said, read once: a frame's bytes do
// not change, and refresh runs on every frame while the pane is open.
type metaCache map[Key]frameMeta

// read returns the meta of each frame, linking each response to the last
// request of its server and id sent the other way, which it answers once:
// a request of the same id sent the same way (the server's own requests,
// ids that start again after a reconnect) is never taken for it. Frames no
// longer shown leave the cache.
func (mc metaCache) read(frames []mcpsession.Frame) []frameMeta {
	metas := make([]frameMeta, len(frames))
	seen := make(map[Key]bool, len(frames))
	type idKey struct {
		server, id string
		dir        mcpsession.Direction
	}
	open := map[idKey]int{}
	rounds := map[string]int{} // server, method and tool: the last round of the exchange
	for i, f := range frames {
		k := keyOf(f)
		seen[k] = true
		m, ok := mc[k]
		if !ok {
			m = readFrame(f)
			mc[k] = m
		}
		m.link = -1
		switch {
		case m.id == "":
		case m.method != "": // a request, in either direction
			open[idKey{f.Server, m.id, f.Dir}] = i
			exchange := f.Server + "\x00" + m.method + "\x00" + m.tool
			if m.again {
				rounds[exchange] = max(rounds[exchange], 1) + 1
				m.round = rounds[exchange]
			} else {
				rounds[exchange] = 1
			}
		default: // a response answers the last request of its id the other way
			other := mcpsession.In
			if f.Dir == mcpsession.In {
				other = mcpsession.Out
			}
			req := idKey{f.Server, m.id, other}
			if j, ok := open[req]; ok {
				delete(open, req)
				m.link, metas[j].link = j, i
				m.latency = f.At.Sub(frames[j].At)
				m.method, m.tool = metas[j].method, metas[j].tool
			}
		}
		metas[i] = m
	}
	for k := range mc {
		if !seen[k] {
			delete(mc, k)
		}
	}
	return metas
}

// readFrame reads a frame's id, method and tool name, when it holds whole
// JSON.
func readFrame(f mcpsession.Frame) frameMeta {
	m := frameMeta{link: -1}
	if f.Junk || f.Truncated() {
		return m
	}
	vals := make([][]byte, 3)
	if !jsonx.Members(f.Bytes, []string{"id", "method", "params"}, vals) {
		return m
	}
	m.id = string(vals[0])
	if m.id == "null" {
		m.id = ""
	}
	m.method = unquote(vals[1])
	if m.method != "" && vals[2] != nil {
		params := make([][]byte, 2)
		if jsonx.Members(vals[2], []string{"name", "inputResponses"}, params) {
			if m.method == "tools/call" {
				m.tool = unquote(params[0])
			}
			m.again = params[1] != nil && !strings.HasPrefix(m.method, "tasks/")
		}
	}
	return m
}

// unquote is a JSON string's text, or "" when raw is not a plain string.
func unquote(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' || strings.IndexByte(string(raw), '\\') >= 0 {
		return ""
	}
	return string(raw[1 : len(raw)-1])
}

// frameReader opens frame i of those shown in the reader: what it is, then
// its bytes, JSON pretty-printed.
func (w *Model) frameReader(i int) *reader.Model {
	s := w.c.Styles()
	f, m := w.shown[i], w.meta[i]
	arrow := " → "
	if f.Dir == mcpsession.In {
		arrow = " ← "
	}
	what := m.method
	if m.tool != "" {
		what += " " + m.tool
	}
	if m.id != "" {
		what += " #" + m.id
	}
	title := s.Title.Render("FRAME") + " " + model.Sanitize(f.Server) + arrow + w.quote(what)
	r := w.c.Reader(title, func() []string { return w.frameLines(f, m) })
	r.Clip, r.ClipName = string(f.Bytes), "the frame"
	if m.link >= 0 {
		k, self := keyOf(w.shown[m.link]), keyOf(f)
		r.Linked, r.Pair = w.c.OpenFrame(k, false), w.c.OpenFrame(self, true)
	}
	return r
}

// frameLines is what the reader shows of frame f: when and how big, what
// is wrong with it, then its bytes, JSON pretty-printed.
func (w *Model) frameLines(f mcpsession.Frame, m frameMeta) []string {
	s := w.c.Styles()
	lines := []string{s.Muted.Render(fmt.Sprintf("%s · %s · %s", f.At.Format("15:04:05.000"), f.Dir, kit.Size(int64(f.Size))))}
	if m.latency > 0 {
		lines[0] += s.Muted.Render(fmt.Sprintf(" · answered after %.1f ms", float64(m.latency.Microseconds())/1000))
	}
	if f.Problem != "" {
		lines = append(lines, s.Warn.Render("! "+kit.Text(w.c.Redact, f.Problem)))
	}
	if f.Truncated() {
		lines = append(lines, s.Warn.Render(fmt.Sprintf("… [cut: %d of %d bytes kept]", len(f.Bytes), f.Size)))
	}
	lines = append(lines, "")
	if f.Junk || f.Truncated() {
		return append(lines, w.c.Text(string(f.Bytes))...)
	}
	return append(lines, w.c.JSON(f.Bytes)...)
}

// OpenFrame selects the frame named k and returns its reader; nil when
// it is no longer held.
func (w *Model) OpenFrame(k Key) *reader.Model {
	for i, f := range w.shown {
		if keyOf(f) == k {
			w.selectFrame(i)
			return w.frameReader(i)
		}
	}
	return nil
}
