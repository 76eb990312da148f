package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/relay"
	"github.com/mcplens/mcplens/surface"
)

// watchRescan is how often watch looks for taps that started since.
const watchRescan = 250 * time.Millisecond

// runWatch is `mcplens watch`: it reads the live feed of every running tap
// and prints, as it happens, each server's client handshake, the tools it
// listed and every tools/call with its latency, marked matching or
// contradicting the route the registry predicts.
func runWatch(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("mcplens watch", flag.ContinueOnError)
	fset.SetOutput(stderr)
	policy := fset.String("policy", "", "naming policy to judge calls by (default: the observed client's)")
	dir := fset.String("dir", "", "the directory of the taps' feeds (default: $XDG_RUNTIME_DIR/mcplens)")
	_, code, ok := parseCommand(fset, args, stderr, "usage: mcplens watch [--policy P] [--dir DIR]\n\n"+
		"Prints what the running taps see as it happens: each server's initialize from the client, the tools\n"+
		"it listed, and every tools/call, marked matching or contradicting the predicted route.\n\n")
	if !ok {
		return code
	}
	if *policy != "" {
		if _, ok := model.PolicyNamed(*policy); !ok {
			fmt.Fprintf(stderr, "mcplens watch: unknown policy %q (want one of: %s)\n", *policy, policyNames())
			return exitUsage
		}
	}
	if *dir == "" {
		d, err := relay.FeedDir()
		if err != nil {
			fmt.Fprintf(stderr, "mcplens watch: %v\n", err)
			return exitUsage
		}
		*dir = d
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	fmt.Fprintf(stderr, "mcplens watch: watching the taps in %s (Ctrl-C to stop)\n", *dir)
	watch(ctx, *dir, *policy, stdout)
	return exitOK
}

// watch reads the feeds in dir until ctx ends, printing to w.
func watch(ctx context.Context, dir, policy string, w io.Writer) {
	lines := make(chan []byte, 256)
	connected := map[string]bool{}
	gone := make(chan string, 16)
	d := capture.NewDecoder()
	tick := time.NewTicker(watchRescan)
	defer tick.Stop()
	for {
		socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
		for _, s := range socks {
			if !connected[s] {
				if conn, err := net.Dial("unix", s); err == nil {
					connected[s] = true
					go readFeed(ctx, conn, s, lines, gone)
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case s := <-gone:
			delete(connected, s)
		case line := <-lines:
			for _, ob := range d.Line(line) {
				if out := watchLine(d.Capture(), ob, policy); out != "" {
					fmt.Fprintln(w, out)
				}
			}
		case <-tick.C:
		}
	}
}

// readFeed sends conn's lines to lines until it ends.
func readFeed(ctx context.Context, conn net.Conn, path string, lines chan<- []byte, gone chan<- string) {
	defer func() { gone <- path }()
	defer conn.Close()
	go func() { <-ctx.Done(); conn.Close() }()
	r := bufio.NewReaderSize(conn, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			select {
			case lines <- line:
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// watchLine is what watch prints of one observation, "" for nothing.
func watchLine(c *capture.Capture, ob capture.Observation, policy string) string {
	var sv *capture.Server
	for _, s := range c.Servers {
		if s.Label == ob.Server {
			sv = s
		}
	}
	stamp := time.Now().Format("15:04:05.000") + " "
	switch ob.Kind {
	case capture.Tapped:
		what := strings.Join(sv.Command, " ")
		if sv.Upstream != "" {
			what = sv.Upstream
		}
		return model.Sanitize(stamp + sv.Label + " tapped: " + what)
	case capture.Initialize:
		who := clientOf(c.Client())
		return model.Sanitize(fmt.Sprintf("%s%s initialize from %s %s (%s) protocol %s, capabilities: %s",
			stamp, sv.Label, sv.Client.Name, sv.Client.Version, who, sv.ClientProtocol, strings.Join(sv.Capabilities, ", ")))
	case capture.Initialized:
		return model.Sanitize(fmt.Sprintf("%s%s answered: %s %s, protocol %s", stamp, sv.Label, sv.ServerName, sv.ServerVersion, sv.Protocol))
	case capture.Listed:
		names := make([]string, len(sv.Tools))
		for i, t := range sv.Tools {
			names[i] = t.Name
		}
		return model.Sanitize(fmt.Sprintf("%s%s listed %d tools: %s", stamp, sv.Label, len(sv.Tools), strings.Join(names, ", ")))
	case capture.CallAnswered:
		p := watchPolicy(c, policy)
		return stamp + callLine(ob.Call, model.JudgeCall(captureRegistry(c, p), ob.Call.Server, ob.Call.Wire)) + " [" + p.Name + "]"
	}
	return ""
}

// watchPolicy is the policy calls are judged by: the one given, else the
// observed client's, else the first.
func watchPolicy(c *capture.Capture, name string) model.Policy {
	if name == "" {
		name = model.Policies()[0].Name
		if _, profile, ok := c.Client(); ok {
			name = profile.Policy
		}
	}
	p, _ := model.PolicyNamed(name)
	return p
}

// captureRegistry is the registry policy builds from what the servers of
// c listed to the client, as a surface of them holds it: offline and watch
// judge calls against it.
func captureRegistry(c *capture.Capture, policy model.Policy) *model.Registry {
	return policy.Apply(captureSnapshot(c).Catalogues())
}

// captureSnapshot is the surface of c's servers, none of them started.
func captureSnapshot(c *capture.Capture) *surface.Snapshot {
	snap := surface.New(c.Specs(), nil)
	for _, ev := range c.Events() {
		snap.Apply(ev)
	}
	return snap
}
