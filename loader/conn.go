package loader

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// ProtocolVersion is the MCP revision mcplens asks for as itself (the
// neutral handshake): the current one, stateless, probed with
// server/discover within its era's bound (model.Era), and negotiated down
// to initialize at LegacyProtocolVersion with a server that does not
// discover.
const ProtocolVersion = model.Revision20260728

// LegacyProtocolVersion is the revision the neutral handshake falls back
// to with initialize.
const LegacyProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION // "2025-11-25"

// relistDelay gathers a burst of tools/list_changed notifications into one
// relisting.
const relistDelay = 100 * time.Millisecond

// exitGrace is how long a failed connect waits for a dying child to finish,
// so the failure can say how it ended.
const exitGrace = 300 * time.Millisecond

// A conn is the connection to one server.
type conn struct {
	s    *Session
	spec config.ServerSpec
	// hs is the handshake the connection sends: the session's, or the one
	// it was reconnected with (Session.Reconnect).
	hs     model.Handshake
	log    frameLog
	stderr *ring
	logs   *logRing // notifications/message (logs.go)
	offers *offerState
	// timeout bounds connecting and each listing; the first connect ends
	// at deadline, which the Connecting events carry.
	timeout  time.Duration
	deadline time.Time

	monitor  *monitor
	pages    *pageTaker                  // a stdio server's; set before its first frame
	capture  atomic.Pointer[callCapture] // of the call running
	closing  atomic.Bool                 // set by Close: no more failures are reported
	attempt  chan struct{}               // closed when the first connect attempt ends
	relist   chan struct{}               // capacity 1: a list_changed is pending
	acked    atomic.Bool                 // the listen stream opened last was acknowledged (relist.go)
	stopOnce sync.Once
	callMu   sync.Mutex // one call at a time per server
	callSeq  atomic.Int64
	progress atomic.Value // callProgress: of the call running
	// taskWatch is the task the call running follows (tasks.go).
	taskWatch atomic.Pointer[taskWatch]

	mu        sync.Mutex
	proc      *process
	tap       *tapReader // a child's stdout
	client    *client.Client
	lister    *lister
	closeIdle func()         // an HTTP server's: closes its kept-alive connections
	redirects *redirectGuard // an HTTP server's
	auth      refuser        // an HTTP server's Options.HTTPAuth transport, when it says its refusals
	state     mcpsession.State
	ready     mcpsession.Event // the last Ready event, reused on relisting

	// era watches the handshake's requests (negotiate.go); set with the
	// transport. settled says how the handshake settled on its revision.
	era     *eraWatch
	settled string
}

func newConn(s *Session, spec config.ServerSpec) *conn {
	c := &conn{
		s:       s,
		spec:    spec,
		hs:      s.handshakeFor(s.opts.Handshake),
		stderr:  newRing(stderrTail),
		logs:    &logRing{},
		offers:  newOfferState(),
		attempt: make(chan struct{}),
		relist:  make(chan struct{}, 1),
	}
	remote := spec.Transport == config.TransportHTTP || spec.Transport == config.TransportSSE
	c.monitor = newMonitor(spec.Label, c.newFinding)
	c.monitor.refuses = !remote
	c.monitor.transportText = remote
	c.log = newFrameLog(spec.Label)
	return c
}

// frame is where every frame of the connection goes, parsed once (see
// observer), from its taps: the monitor names what it breaks, the FrameLog
// keeps it, the page taker takes the answers to the lister's requests, the
// call running keeps its exchange. Then the waits the monitor ended on a
// refused answer end, and a view is told that frames arrived.
func (c *conn) frame(f *frameInfo) {
	c.monitor.frame(f)
	c.log.frame(f)
	if c.pages != nil {
		c.pages.frame(f)
	}
	if capture := c.capture.Load(); capture != nil {
		capture.frame(f)
	}
	if f.over != nil {
		c.lineOverLimit(f.over)
	}
	c.monitor.flush()
	c.s.emit(mcpsession.Event{Server: c.spec.Label, Frames: true})
}

func (c *conn) process() *process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.proc
}

// connect starts the server (a child, or an HTTP client), runs the
// handshake and lists the tools.
func (c *conn) connect() {
	defer close(c.attempt)
	if c.spec.Blocked != "" {
		c.fail("not started: "+c.spec.Blocked, "")
		return
	}
	var cl *client.Client
	if c.spec.Transport == config.TransportHTTP || c.spec.Transport == config.TransportSSE {
		cl = c.dial()
	} else {
		cl = c.startChild()
	}
	if cl != nil {
		c.handshake(cl)
	}
}

// handshake starts the client, initializes and lists the tools, within the
// server's timeout. The clock starts here, once the child runs: when
// starting it took a while (a loaded machine), the Connecting event is sent
// again with the deadline that holds.
func (c *conn) handshake(cl *client.Client) {
	deadline := time.Now().Add(c.timeout)
	if deadline.Sub(c.deadline) > 50*time.Millisecond && !c.closing.Load() {
		c.s.emit(mcpsession.Event{Server: c.spec.Label, State: mcpsession.Connecting, Deadline: deadline, Transport: c.transport()})
	}
	c.deadline = deadline
	ctx, cancel := context.WithDeadline(c.s.ctx, deadline)
	defer cancel()
	if err := cl.Start(c.s.ctx); err != nil {
		c.failAndStop("starting the client", err)
		return
	}
	// Start gave the transport mcp-go's handler of server requests, which
	// answers only what it has handlers for: the conn answers instead.
	if bi, ok := cl.GetTransport().(transport.BidirectionalInterface); ok {
		bi.SetRequestHandler(c.answer)
	}
	init, err := c.initialize(ctx, cl)
	if err != nil {
		c.failAndStop("initialize", err)
		return
	}
	c.lister.limits, c.lister.monitor = c.s.opts.Limits, c.monitor
	var tools []model.Tool
	var note string
	if listsTools(init.Capabilities) {
		if tools, note, err = c.lister.list(ctx); err != nil {
			c.failAndStop("listing tools", err)
			return
		}
	}
	c.monitor.listed(note)
	c.spec.MarkFiltered(tools)
	c.markRejected(tools, init.ProtocolVersion)
	offers := c.listOffers(ctx, init.Capabilities)

	ev := mcpsession.Event{
		Server:        c.spec.Label,
		State:         mcpsession.Ready,
		Err:           c.readyNote(note),
		Protocol:      init.ProtocolVersion,
		ServerName:    init.ServerInfo.Name,
		ServerVersion: init.ServerInfo.Version,
		Facts:         c.facts(init),
		Tools:         tools,
		Offers:        offers,
		HostsApps:     c.hs.Capabilities.Apps,
		Findings:      c.monitor.list(),
	}
	c.mu.Lock()
	if c.state != mcpsession.Connecting || c.closing.Load() {
		c.mu.Unlock()
		return
	}
	if c.tap != nil && c.tap.overLimit() != nil {
		// A line went over the limit after the listing, before Ready:
		// lineOverLimit saw the server connecting and left it to here.
		c.mu.Unlock()
		c.failAndStop("listing tools", c.tap.overLimit())
		return
	}
	c.state, c.ready = mcpsession.Ready, ev
	c.mu.Unlock()
	c.s.emit(ev)
	c.s.wg.Go(c.relistLoop)
	c.s.wg.Go(c.relistOffers)
}

// fail reports the server as failed, once; later failures and failures
// during Close are not reported.
func (c *conn) fail(msg, stderr string) {
	c.failWith(mcpsession.Event{Err: msg, Stderr: stderr})
}

// failWith reports ev, a Failed event of the server's.
func (c *conn) failWith(ev mcpsession.Event) {
	c.mu.Lock()
	if c.state == mcpsession.Failed || c.state == mcpsession.Closed || c.closing.Load() {
		c.mu.Unlock()
		return
	}
	c.state = mcpsession.Failed
	c.mu.Unlock()
	ev.Server, ev.State, ev.Findings = c.spec.Label, mcpsession.Failed, c.monitor.list()
	c.s.emit(ev)
}

// failAndStop reports a failed connect and stops the child. A connection
// that broke usually means a dying child: the report waits a moment to say
// how it ended, and for its last words on stderr.
func (c *conn) failAndStop(phase string, err error) {
	if c.closing.Load() {
		return
	}
	if over := c.overLimit(); over != nil {
		// The connection ended because a line went over the limit; what
		// mcp-go reports is only that its stream closed.
		c.fail(phase+": "+over.Error(), c.stderr.String())
		c.terminate()
		return
	}
	p := c.process()
	msg := describeErr(phase, err, c.timeout)
	if p == nil { // an HTTP server: no process to wait for
		if le := c.needsLogin(err); le != nil {
			c.failWith(mcpsession.Event{Err: le.Error(), NeedsLogin: true})
			c.terminate()
			return
		}
		c.fail(msg+httpHint(err), "")
		c.terminate()
		return
	}
	// The pipe failed, not the server's answer: mcp-go wraps a failed write
	// and reports a closed stdout as the transport closing.
	var werr *transport.Error
	broken := (errors.As(err, &werr) || errors.Is(err, transport.ErrTransportClosed)) &&
		!errors.Is(err, context.DeadlineExceeded)
	wait := time.Duration(0)
	if broken {
		wait = exitGrace
	}
	if p.waitExit(wait) {
		if broken {
			msg = fmt.Sprintf("%s: server exited (%s)", phase, p.status())
		} else {
			msg += fmt.Sprintf(" (server exited: %s)", p.status())
		}
		select {
		case <-p.stderrDone:
		case <-time.After(pipeGrace):
		}
	} else if errors.Is(err, transport.ErrTransportClosed) {
		msg = phase + ": server closed its stdout"
	}
	c.fail(msg, c.stderr.String())
	c.terminate()
}

// terminate closes the connection and stops the child, once; concurrent
// callers wait for the first to finish.
func (c *conn) terminate() {
	c.stopOnce.Do(func() {
		c.mu.Lock()
		cl, p := c.client, c.proc
		c.mu.Unlock()
		if cl != nil {
			_ = cl.Close() // ends pending requests and closes the tapped stdin
		}
		c.mu.Lock()
		closeIdle := c.closeIdle
		c.mu.Unlock()
		if closeIdle != nil {
			closeIdle()
		}
		if p != nil {
			_ = p.stdin.Close()
			p.stop()
		}
	})
}

// shutdown stops the child for Close and reports whether it was reaped.
func (c *conn) shutdown() bool {
	c.terminate()
	c.mu.Lock()
	if c.state != mcpsession.Closed {
		c.state = mcpsession.Closed
	}
	p := c.proc
	c.mu.Unlock()
	return p == nil || p.waitExit(0)
}
