package loader_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// initializes counts the initialize requests sent to a server.
func initializes(t *testing.T, s *loader.Session, label string) int {
	t.Helper()
	n := 0
	for _, f := range s.FrameLog(label).Frames() {
		if m, _ := method(t, f.Bytes); f.Dir == mcpsession.Out && handshakeMethod(m) {
			n++
		}
	}
	return n
}

// handshakeMethod reports whether m opens a connection: initialize, or the
// server/discover probe of the stateless revisions, which the demo servers
// answer.
func handshakeMethod(m string) bool { return m == "initialize" || m == "server/discover" }

// statesOf collects the states one server goes through until it is Ready
// or Failed, or until it reaches stop; events of other servers are
// returned apart.
func statesOf(t *testing.T, s *loader.Session, label string, stop mcpsession.State) (states []string, others []mcpsession.Event) {
	t.Helper()
	for {
		ev := nextState(t, s, settleTimeout)
		if ev.Server != label {
			others = append(others, ev)
			continue
		}
		if st := ev.State.String(); len(states) == 0 || states[len(states)-1] != st {
			states = append(states, st)
		}
		if ev.State == stop || ev.State == mcpsession.Ready || ev.State == mcpsession.Failed {
			return states, others
		}
	}
}

// gone waits until the process pid no longer exists.
func gone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(settleTimeout)
	for processLives(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRestartDisconnectConnect: Restart stops one real server and starts
// it again with its handshake (a new process, a second initialize, listed
// anew); Disconnect stops it and keeps it stopped (Disconnected at once,
// its process gone, calls refused); Connect starts it again. The other
// servers keep their process and their one initialize throughout.
func TestRestartDisconnectConnect(t *testing.T) {
	cfg := demoConfig()
	s := open(t, cfg, loader.Options{})
	settle(t, s, cfg)
	label, other := cfg.Servers[0].Label, cfg.Servers[1].Label
	otherPid := s.Pid(other)

	for _, bad := range []bool{s.Restart("nobody"), s.Disconnect("nobody"), s.Connect("nobody"), s.Connect(label)} {
		if bad {
			t.Error("Restart/Disconnect of an unknown server, or Connect of a ready one, reported true")
		}
	}

	pid := s.Pid(label)
	if !s.Restart(label) {
		t.Fatalf("Restart(%s) = false", label)
	}
	states, others := statesOf(t, s, label, mcpsession.Ready)
	if got := strings.Join(states, " "); got != "connecting ready" {
		t.Errorf("states after Restart = %q, want connecting ready", got)
	}
	gone(t, pid)
	if s.Pid(label) == pid || s.Pid(label) == 0 {
		t.Errorf("after Restart the pid is %d, was %d: want a new process", s.Pid(label), pid)
	}
	if n := initializes(t, s, label); n != 2 {
		t.Errorf("%d handshakes after Restart, want 2", n)
	}

	pid = s.Pid(label)
	if !s.Disconnect(label) {
		t.Fatalf("Disconnect(%s) = false", label)
	}
	if s.Disconnect(label) {
		t.Error("Disconnect of a disconnected server reported true")
	}
	st, more := statesOf(t, s, label, mcpsession.Disconnected)
	others = append(others, more...)
	if got := strings.Join(st, " "); got != "disconnected" {
		t.Errorf("states after Disconnect = %q, want disconnected", got)
	}
	gone(t, pid)
	if _, err := s.Call(t.Context(), label, "request", nil); !errors.Is(err, loader.ErrNotReady) {
		t.Errorf("a call to a disconnected server: %v, want ErrNotReady", err)
	}

	if !s.Connect(label) {
		t.Fatalf("Connect(%s) = false", label)
	}
	st, more = statesOf(t, s, label, mcpsession.Ready)
	others = append(others, more...)
	if got := strings.Join(st, " "); got != "connecting ready" {
		t.Errorf("states after Connect = %q, want connecting ready", got)
	}
	if n := initializes(t, s, label); n != 3 {
		t.Errorf("%d handshakes after Connect, want 3", n)
	}
	if _, err := s.Call(t.Context(), label, "request", []byte(`{"params":{}}`)); errors.Is(err, loader.ErrNotReady) {
		t.Errorf("a call after Connect: %v", err)
	}

	if len(others) != 0 {
		t.Errorf("the other servers changed state: %+v", others)
	}
	if s.Pid(other) != otherPid || initializes(t, s, other) != 1 {
		t.Errorf("%s was touched: pid %d (was %d), %d handshakes", other, s.Pid(other), otherPid, initializes(t, s, other))
	}
}
