package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"sync"

	"github.com/mcplens/mcplens/mcpsession"
)

// concurrentPosts is how many requests the multiple-streams probe sends at
// once, as many as the conformance suite's scenario does.
const concurrentPosts = 3

// streams opens the GET stream where the server serves one and, while it
// is open, POSTs the revision's noop concurrentPosts times at once: each is
// to be answered 2xx with its own response on its own stream, and no
// stream (another POST's, the GET one) is to carry a response to another
// request, since a server sends each message on one stream only.
func (a *auditor) streams(ctx context.Context) {
	const id = "http.multiple-streams"
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	mark := a.t.mark()
	a.fs.probe(id)
	get := a.httpp.listen(pctx)
	var bodies [concurrentPosts][]byte
	var ids [concurrentPosts]json.RawMessage
	for i := range bodies {
		bodies[i] = a.noopBody()
		ids[i] = json.RawMessage(fmt.Sprint(a.c.id))
	}
	var exs [concurrentPosts]exchange
	var errs [concurrentPosts]error
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Go(func() {
			exs[i], errs[i] = a.httpp.do(pctx, http.MethodPost, a.httpp.standardHeaders(bodies[i]), "", bodies[i])
		})
	}
	wg.Wait()
	var onGet [][]byte
	if get != nil {
		onGet = get.stop()
	}
	// whose says which of the probe's requests a message answers, -1 for
	// none of them.
	whose := func(raw []byte) int {
		m, ok := decode(raw)
		if !ok || !m.response() {
			return -1
		}
		for i, want := range ids {
			if sameID(m.ID, want) {
				return i
			}
		}
		return -1
	}
	for i, ex := range exs {
		switch {
		case errs[i] != nil && ex.status == 0:
			a.fs.add(id, "", fmt.Sprintf("request %s of %d sent at once was not answered: %v", ids[i], concurrentPosts, errs[i]), a.t.since(mark))
			continue
		case ex.status/100 != 2:
			a.fs.add(id, "", fmt.Sprintf("request %s of %d sent at once, with the GET stream open: %v, was answered HTTP %d; want each answered on its own stream", ids[i], concurrentPosts, get != nil, ex.status), a.t.since(mark))
			continue
		}
		own := false
		for _, raw := range ex.msgs {
			switch j := whose(raw); {
			case j == i:
				own = true
			case j >= 0:
				a.fs.add(id, "", fmt.Sprintf("the stream of request %s carried the response to request %s: each message goes on one stream, its request's", ids[i], ids[j]), a.t.since(mark))
			}
		}
		if !own {
			a.fs.add(id, "", fmt.Sprintf("request %s of %d sent at once was answered HTTP %d without its response", ids[i], concurrentPosts, ex.status), a.t.since(mark))
		}
	}
	for _, raw := range onGet {
		if j := whose(raw); j >= 0 {
			a.fs.add(id, "GET", fmt.Sprintf("the GET stream carried the response to request %s, which goes on its POST's stream", ids[j]), a.t.since(mark))
		}
	}
}

// A listener reads the GET stream until stopped.
type listener struct {
	cancel context.CancelFunc
	done   chan struct{}
	msgs   [][]byte
	err    error // why the reading ended before stop, if it did
	p      *httpPeer
}

// listen opens the GET stream and reads it in the background, bounded as
// a POST's stream is (the body and event limits, maxEvents, ctx); nil when
// the server answers GET with anything but an event stream: http.get
// judges that answer, and a 409 may be the server's one stream a session
// (the TypeScript SDK's) not yet seen closed.
func (p *httpPeer) listen(ctx context.Context) *listener {
	lctx, cancel := context.WithCancel(ctx)
	req, err := p.request(lctx, http.MethodGet, map[string]string{"Accept": "text/event-stream"}, "", nil)
	if err != nil {
		cancel()
		return nil
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		p.t.add(mcpsession.In, []byte("no response: "+err.Error()), false, "")
		cancel()
		return nil
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		p.t.add(mcpsession.In, responseText(resp, exchange{}), false, "")
		resp.Body.Close()
		cancel()
		return nil
	}
	p.t.add(mcpsession.In, responseText(resp, exchange{stream: true}), false, "")
	l := &listener{cancel: cancel, done: make(chan struct{}), p: p}
	go func() {
		defer close(l.done)
		defer resp.Body.Close()
		l.msgs, l.err = p.readEvents(resp.Body) // ends at a response, the stream's end, a bound or stop
		if lctx.Err() != nil {
			l.err = nil // stopped
		}
	}()
	return l
}

// stop closes the GET stream and returns the messages it carried, recorded
// as one frame.
func (l *listener) stop() [][]byte {
	l.cancel()
	<-l.done
	if len(l.msgs) > 0 || l.err != nil {
		var b bytes.Buffer
		b.WriteString("GET stream")
		if l.err != nil {
			b.WriteString(" ended: " + l.err.Error())
		}
		for _, m := range l.msgs {
			b.WriteString("\n\ndata: ")
			b.Write(m)
		}
		l.p.t.add(mcpsession.In, b.Bytes(), false, "")
	}
	return l.msgs
}
