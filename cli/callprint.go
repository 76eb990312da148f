package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/mcpsession"
)

// After the result, call goes on printing the server's log messages until
// the server has been quiet for logQuiet, or its connection ended, and for
// at most logGrace: a server often logs that it finished just after
// answering.
const (
	logQuiet = 300 * time.Millisecond
	logGrace = time.Second
)

// A wirePrinter prints the frames of one call on one server as they cross
// the wire: the tools/call request, the requests the server sends during
// it and mcplens's answers, its log messages, a notifications/cancelled,
// and the response. It runs on a goroutine of its own (start); the call's
// outcome is handed to it (answered) and it returns once the server is
// quiet after it (wait).
type wirePrinter struct {
	out    io.Writer
	server string
	log    *mcpsession.FrameLog
	san    func(string) string

	seen    int             // the frames of the log looked at: Since's n
	callIDs map[string]bool // the ids of the tools/call requests printed
	rounds  int             // the tools/call requests printed: more than one in a multi-round call
	res     *callOutcome    // the call's outcome, once known
	printed bool            // the response was printed

	outcome chan callOutcome
	done    chan struct{}
}

// A callOutcome is what a call returned.
type callOutcome struct {
	res mcpsession.CallResult
	err error
}

// newWirePrinter prints the frames of server that cross after now.
func newWirePrinter(out io.Writer, server string, log *mcpsession.FrameLog, san func(string) string) *wirePrinter {
	p := &wirePrinter{out: out, server: server, log: log, san: san, callIDs: map[string]bool{},
		outcome: make(chan callOutcome, 1), done: make(chan struct{})}
	_, p.seen, _ = log.Since(0)
	return p
}

// start prints frames as events say they arrived, until wait's end.
func (p *wirePrinter) start(events <-chan mcpsession.Event) {
	go func() {
		defer close(p.done)
		var quiet, grace <-chan time.Time
		ended := false
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					events, ended = nil, true
				} else if ev.Server == p.server {
					ended = ended || ev.State == mcpsession.Failed || ev.State == mcpsession.Closed
					if p.scan() && p.res != nil {
						quiet = time.After(logQuiet)
					}
				}
			case o := <-p.outcome:
				p.res = &o
				p.scan()
				p.respond()
				quiet, grace = time.After(logQuiet), time.After(logGrace)
			case <-quiet:
				p.scan()
				return
			case <-grace:
				p.scan()
				return
			}
			if ended && p.res != nil {
				p.scan()
				return
			}
		}
	}()
}

// answered hands the printer the call's outcome and waits until it has
// printed the server's log messages after it.
func (p *wirePrinter) answered(res mcpsession.CallResult, err error) {
	p.outcome <- callOutcome{res, err}
	<-p.done
}

// scan prints the frames that arrived since the last scan and reports
// whether there were any. It stops at a response cut short until the
// call's outcome holds it whole.
func (p *wirePrinter) scan() bool {
	frames, total, lost := p.log.Since(p.seen)
	if lost > 0 {
		fmt.Fprintf(p.out, "… %d frames of %s not kept\n", lost, p.san(p.server))
	}
	for i, f := range frames {
		if !p.frame(f) {
			p.seen = total - len(frames) + i
			return true
		}
	}
	p.seen = total
	return len(frames) > 0 || lost > 0
}

// frame prints f when it is one of the call's; it returns false to stop
// at a response that can only be printed from the outcome, not yet known.
func (p *wirePrinter) frame(f mcpsession.Frame) bool {
	if f.Junk {
		return true
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(f.Bytes, &msg) != nil && !f.Truncated() {
		return true
	}
	id := string(msg.ID)
	switch {
	case f.Dir == mcpsession.Out && msg.Method == "tools/call":
		p.callIDs[id] = true
		if p.rounds++; p.rounds > 1 { // calltask.go
			fmt.Fprintf(p.out, "round %d of the call, with the answers to the server's input requests:\n", p.rounds)
		}
	case f.Dir == mcpsession.Out && strings.HasPrefix(msg.Method, "tasks/"):
		p.callIDs[id] = true // following the task the call became
	case f.Dir == mcpsession.In && msg.Method == "" && p.callIDs[id] || f.Dir == mcpsession.In && f.Truncated() && msg.Method == "":
		if f.Truncated() {
			if p.res == nil {
				return false
			}
			p.respond()
			return true
		}
		p.printed = true
	case len(msg.ID) == 0: // a notification: the server's logs, and a cancellation
		if !(f.Dir == mcpsession.In && msg.Method == "notifications/message" || f.Dir == mcpsession.Out && msg.Method == "notifications/cancelled") {
			return true
		}
	case (f.Dir == mcpsession.In) != (msg.Method != ""):
		return true // neither a request of the server's nor an answer of mcplens's
	}
	p.print(f.Dir, f.Bytes, cutMark(f))
	return true
}

// respond prints the response from the call's outcome, once: whole,
// where the frame log holds only its start.
func (p *wirePrinter) respond() {
	if p.printed || len(p.res.res.Response) == 0 {
		return
	}
	p.printed = true
	p.print(mcpsession.In, p.res.res.Response, p.res.res.CutMark(p.res.err))
}

func (p *wirePrinter) print(dir mcpsession.Direction, line []byte, mark string) {
	fmt.Fprintf(p.out, "%s %s %s%s\n", arrow(dir), p.san(p.server), p.san(string(line)), mark)
}

// arrow is how a printed frame says its way: → to the server, ← from it.
func arrow(dir mcpsession.Direction) string {
	if dir == mcpsession.Out {
		return "→"
	}
	return "←"
}

// cutMark marks a frame the log holds only the start of.
func cutMark(f mcpsession.Frame) string {
	if !f.Truncated() {
		return ""
	}
	return fmt.Sprintf("… [cut: %d of %d bytes]", len(f.Bytes), f.Size)
}

// elideBase64 returns a result with the base64 of its content (an image's
// or audio's data, an embedded resource's blob) replaced by a note of its
// size: the response frame printed above holds it, once is enough. The
// rest is as sent; a result that is not an object is returned as it is.
func elideBase64(result json.RawMessage) json.RawMessage {
	fields, ok := jsonx.Fields(result)
	if !ok {
		return result
	}
	changed := false
	for i, f := range fields {
		if f.Name != "content" {
			continue
		}
		items, ok := jsonx.Elements(f.Value)
		if !ok {
			continue
		}
		for j, item := range items {
			if v, ok := elideMember(item, "data"); ok {
				items[j], changed = v, true
			} else if res := jsonx.MemberFold(item, "resource"); res != nil {
				if v, ok := elideMember(res, "blob"); ok {
					items[j], changed = replaceMember(item, "resource", v), true
				}
			}
		}
		fields[i].Value = join('[', items, ']')
	}
	if !changed {
		return result
	}
	return object(fields)
}

// elideMember replaces the string member name of obj with a note of its
// length; ok is false when obj has no such string.
func elideMember(obj []byte, name string) (json.RawMessage, bool) {
	v := jsonx.MemberFold(obj, name)
	var s string
	if v == nil || json.Unmarshal(v, &s) != nil || s == "" {
		return nil, false
	}
	note, _ := json.Marshal(fmt.Sprintf("(%d characters of base64, in the response above)", len(s)))
	return replaceMember(obj, name, note), true
}

// replaceMember returns obj with its member name's value replaced.
func replaceMember(obj []byte, name string, value []byte) json.RawMessage {
	fields, _ := jsonx.Fields(obj)
	for i := range fields {
		if fields[i].Name == name {
			fields[i].Value = value
		}
	}
	return object(fields)
}

// object writes fields as a JSON object, in their order.
func object(fields []jsonx.Field) json.RawMessage {
	var items []json.RawMessage
	for _, f := range fields {
		name, _ := json.Marshal(f.Name)
		items = append(items, append(append(name, ':'), f.Value...))
	}
	return join('{', items, '}')
}

func join(open byte, items []json.RawMessage, end byte) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte(open)
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(end)
	return b.Bytes()
}
