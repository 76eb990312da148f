package loader

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Options tune a Session.
type Options struct {
	// Timeout, when set, bounds every server's connect and tool listing
	// (a --timeout for the run). Otherwise a server's config timeout
	// (config.ServerSpec.Timeout) bounds it, else DefaultTimeout.
	Timeout time.Duration
	// Logger receives what mcp-go's transports log: each transport is
	// given it, and the process-wide slog default is left alone. nil
	// discards, so nothing reaches a terminal a TUI is drawing on.
	Logger *slog.Logger
	// Limits bound what is read from each server; unset ones take their
	// defaults (DefaultLimits).
	Limits Limits
	// Handshake is what every server is sent when it connects: the
	// clientInfo, capabilities and protocol revision of the initialize
	// request, and headers over HTTP. The zero value is
	// model.NeutralHandshake(), mcplens as itself.
	Handshake model.Handshake
	// Answers say how the requests servers send are answered (roots/list,
	// elicitation/create, sampling/createMessage), for those Handshake
	// declares a capability for; the others are refused.
	Answers Answers
	// HTTPAuth, when set, wraps the HTTP transport of each remote server
	// (its token added under the wire tap); a request it fails with an
	// error whose NeedsLogin method reports true fails the server with
	// Event.NeedsLogin.
	HTTPAuth func(spec config.ServerSpec, next http.RoundTripper) http.RoundTripper
	// Protocol, when set, is the revision every server is asked for,
	// whatever Handshake's (--protocol): the handshake's era becomes the
	// revision's (model.EraOf). SetProtocol changes it.
	Protocol string
	// Guard, when set, kills the process group of every stdio server should
	// mcplens die without stopping it (see procguard.Guard). Sessions may share one.
	Guard *procguard.Guard
}

// DefaultTimeout is the per-server connect and listing timeout.
const DefaultTimeout = 20 * time.Second

// closeBudget bounds Close, whatever the servers do.
const closeBudget = stopBudget + 200*time.Millisecond

// A Session is the live connections to the servers of one config.
type Session struct {
	ctx    context.Context
	cancel context.CancelFunc
	opts   Options
	events *eventQueue
	wg     sync.WaitGroup // every goroutine that may emit or touch a child

	// mu guards the connections, which Reconnect replaces, and closed.
	mu     sync.RWMutex
	conns  []*conn // in config order
	byName map[string]*conn
	closed bool // Close began: no more reconnects

	closeOnce sync.Once
	closeErr  error

	// fellBack remembers, per server label and stateless revision, that
	// the server answered the server/discover probe not at all or with an
	// error, and settled on initialize: a reconnect does not probe again
	// (handshake.go).
	fellBack sync.Map
	// roots are the folders roots/list is answered with (roots.go).
	roots rootSet
	// protocol is Options.Protocol, as SetProtocol leaves it (negotiate.go).
	protocol atomic.Pointer[string]
}

// Open starts connecting to every server of cfg at once and returns without
// waiting: progress arrives on Events. A label repeated in cfg (which
// config.Parse never returns) is connected once, as first declared.
func Open(cfg *config.Config, opts Options) *Session {
	runTimeout := opts.Timeout
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	opts.Limits = opts.Limits.WithDefaults()
	if opts.Handshake.ClientInfo.Name == "" {
		opts.Handshake = model.NeutralHandshake()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}

	ctx, cancel := context.WithCancel(context.Background())
	s := &Session{
		ctx:    ctx,
		cancel: cancel,
		opts:   opts,
		events: newEventQueue(),
		byName: map[string]*conn{},
	}
	s.protocol.Store(&opts.Protocol)
	for _, spec := range cfg.Servers {
		if s.byName[spec.Label] != nil {
			continue // a label names one server; config.Parse rejects repeats
		}
		c := newConn(s, spec)
		c.timeout = ConnectTimeout(spec, runTimeout)
		c.deadline = time.Now().Add(c.timeout)
		s.conns = append(s.conns, c)
		s.byName[spec.Label] = c
	}
	// Announce every server before any connects, so a reader sees them in
	// config order.
	for _, c := range s.conns {
		s.emit(mcpsession.Event{Server: c.spec.Label, State: mcpsession.Connecting, Deadline: c.deadline, Transport: c.transport()})
	}
	for _, c := range s.conns {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			c.connect()
		}()
	}
	return s
}

// Events returns the stream of state and frames events. State events are
// never dropped; the channel is closed after Close.
func (s *Session) Events() <-chan mcpsession.Event { return s.events.out }

// FrameLog returns the frame log of a server, or nil for an unknown label.
func (s *Session) FrameLog(server string) *mcpsession.FrameLog {
	if c := s.conn(server); c != nil {
		return c.log.FrameLog
	}
	return nil
}

// Stderr returns the tail of a server's stderr.
func (s *Session) Stderr(server string) string {
	if c := s.conn(server); c != nil {
		return c.stderr.String()
	}
	return ""
}

// Pid returns the process id of a server's child, or 0 when it never
// started.
func (s *Session) Pid(server string) int {
	if c := s.conn(server); c != nil {
		if p := c.process(); p != nil {
			return p.pid
		}
	}
	return 0
}

// Close ends every connection: each child's stdin is closed, then it gets
// SIGTERM, then SIGKILL, and is reaped; no child outlives Close. It takes at
// most about 1.5s, and returns an error only when a child could not be
// reaped.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		deadline := time.Now().Add(closeBudget)
		s.mu.Lock()
		s.closed = true
		conns := s.conns
		s.mu.Unlock()
		for _, c := range conns {
			c.closing.Store(true)
		}
		s.cancel() // connects and relistings in progress give up now

		var mu sync.Mutex
		var stuck []string
		var stops sync.WaitGroup
		for _, c := range conns {
			stops.Go(func() {
				if !c.shutdown() {
					mu.Lock()
					stuck = append(stuck, c.spec.Label)
					mu.Unlock()
				}
				s.emit(mcpsession.Event{Server: c.spec.Label, State: mcpsession.Closed})
			})
		}
		stops.Wait()

		// A connect that raced with Close stops its own child: wait for it,
		// and for every other goroutine, within the budget.
		done := make(chan struct{})
		go func() {
			s.wg.Wait()
			close(done)
		}()
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
		}
		s.events.close()
		if len(stuck) > 0 {
			s.closeErr = fmt.Errorf("closing session: the process of %v did not exit after SIGKILL", stuck)
		}
	})
	return s.closeErr
}

func (s *Session) emit(ev mcpsession.Event) { s.events.push(ev) }

// conn returns the connection to the server of the label, nil for an
// unknown one.
func (s *Session) conn(label string) *conn {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byName[label]
}

// ConnectTimeout is the bound a session puts on connecting to the server s
// and listing its tools, given the run's timeout (0 for none): the run's,
// else the config's own, else DefaultTimeout.
func ConnectTimeout(s config.ServerSpec, run time.Duration) time.Duration {
	switch {
	case run > 0:
		return run
	case s.Timeout > 0:
		return s.Timeout
	}
	return DefaultTimeout
}

// describeErr words a connect error for a person, folding in how the
// process ended when it did.
func describeErr(phase string, err error, timeout time.Duration) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("%s: no answer within %s", phase, timeout)
	}
	return fmt.Sprintf("%s: %v", phase, tidy(err))
}
