package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/relay"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/ui"
)

// runWatch is `mcplens watch`: it reads the live feed of every running tap
// and prints, as it happens, each server's client handshake, the tools it
// listed and every tools/call with its latency, marked matching or
// contradicting the route the registry predicts.
func runWatch(args []string, hooks Hooks, stdout, stderr io.Writer) int {
	return runCommand("watch", &watchCommand{hooks: hooks}, args, stdio{out: stdout, err: stderr})
}

// watchCommand is `mcplens watch`: its flags and the config read.
type watchCommand struct {
	policy, dir string
	plain       bool
	hooks       Hooks
	cfg         *config.Config
}

func (c *watchCommand) parse(fset *flag.FlagSet, args []string) error {
	fset.StringVar(&c.policy, "policy", "", "naming policy to judge calls by (default: the observed client's)")
	fset.StringVar(&c.dir, "dir", "", "the directory of the taps' feeds (default: $XDG_RUNTIME_DIR/mcplens)")
	fset.BoolVar(&c.plain, "lines", false, "print a line per event even on a terminal (off a terminal, lines are printed anyway)")
	pos, err := parseCommand(fset, args, "usage: mcplens watch [CONFIG] [--policy P] [--dir DIR] [--lines]\n\n"+
		"Shows what the running taps see as it happens: each server's initialize from the client, the tools\n"+
		"it listed, and every tools/call, marked matching or contradicting the predicted route. On a terminal\n"+
		"it opens the interface on them (t lists the client's calls); otherwise it prints a line per event.\n"+
		"CONFIG, the tapped client's config, gives its servers' order, which first-wins policies depend on;\n"+
		"without it, servers are in the order their taps started.\n\n")
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError(errors.New("at most one CONFIG"))
	}
	if len(pos) == 1 {
		if c.cfg, err = config.Load(pos[0]); err != nil {
			return usageError(err)
		}
	}
	if c.policy != "" {
		if _, ok := model.PolicyNamed(c.policy); !ok {
			return usagef("unknown policy %q (want one of: %s)", c.policy, policyNames())
		}
	}
	if c.dir == "" {
		d, err := relay.FeedDir()
		if err != nil {
			return usageError(err)
		}
		c.dir = d
	}
	return nil
}

// Run watches the taps until a signal.
func (c *watchCommand) Run(ctx context.Context, std stdio) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if f, ok := std.out.(*os.File); ok && !c.plain && isTerminal(f) {
		return watchUI(ctx, c.dir, c.policy, c.cfg, c.hooks)
	}
	fmt.Fprintf(std.err, "mcplens watch: watching the taps in %s (Ctrl-C to stop)\n", c.dir)
	watch(ctx, c.dir, c.policy, order(c.cfg), std.out)
	return nil
}

// order is the labels of cfg's servers, in its order; nil for none.
func order(cfg *config.Config) []string {
	if cfg == nil {
		return nil
	}
	labels := make([]string, len(cfg.Servers))
	for i, s := range cfg.Servers {
		labels[i] = s.Label
	}
	return labels
}

// watch reads the feeds in dir until ctx ends, printing to w; calls are
// judged with the servers in order (the labels given first).
func watch(ctx context.Context, dir, policy string, order []string, w io.Writer) {
	lines := make(chan capture.FeedLine, 256)
	go capture.Follow(ctx, dir, lines)
	d := capture.NewDecoder()
	tapped := map[string]string{} // feed → its server, for its end
	for {
		select {
		case <-ctx.Done():
			return
		case fl := <-lines:
			if fl.Line == nil {
				if sv := d.Capture().Server(tapped[fl.Feed]); sv != nil {
					fmt.Fprintln(w, model.Sanitize(time.Now().Format("15:04:05.000")+" "+endLine(sv)))
				}
				continue
			}
			sv := d.Capture().Server(tapped[fl.Feed])
			if n := capture.FeedDropped(fl.Line); n > 0 && sv != nil {
				fmt.Fprintln(w, model.Sanitize(fmt.Sprintf("%s %s: %d lines of its feed were not received (calls among them are not shown)",
					time.Now().Format("15:04:05.000"), sv.Label, n)))
				continue
			}
			chunks := 0
			if sv != nil {
				chunks = sv.Dropped
			}
			for _, ob := range d.Line(fl.Line) {
				if ob.Kind == capture.Tapped {
					tapped[fl.Feed] = ob.Server
				}
				if out := watchLine(d.Capture().Ordered(order), ob, policy); out != "" {
					fmt.Fprintln(w, out)
				}
			}
			if sv != nil && sv.Dropped > chunks {
				fmt.Fprintln(w, model.Sanitize(fmt.Sprintf("%s %s: %d chunks of bytes were left out of the tap's copy (their frames are not shown)",
					time.Now().Format("15:04:05.000"), sv.Label, sv.Dropped-chunks)))
			}
		}
	}
}

// watchUI opens the interface on the taps in dir: their servers appear as
// they start (cfg's first, in its order, waiting for their taps), and the
// calls pane (t) lists the client's calls.
func watchUI(ctx context.Context, dir, policy string, cfg *config.Config, hooks Hooks) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	title, specs := "taps in "+dir+" (watching)", []config.ServerSpec(nil)
	if cfg != nil {
		title, specs = cfg.Path+" (watching its taps)", cfg.Servers
	}
	m := ui.New(ui.Options{Title: title, Servers: specs, Backend: capture.NewLive(ctx, dir), Policy: policy, PolicyPicked: policy != ""})
	p := tea.NewProgram(hooks.wrap(m), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) && ctx.Err() == nil {
		return failError(err)
	}
	return nil
}

// endLine is what watch prints of the end of sv's tap: that it ended,
// and when its server never listed, that and the last of its stderr.
func endLine(sv *capture.Server) string {
	ev := sv.Ended()
	if ev.State != mcpsession.Failed {
		return sv.Label + " tap ended"
	}
	out := sv.Label + ": " + ev.Err
	if n := len(sv.Stderr); n > 0 {
		out += "; stderr: " + sv.Stderr[n-1]
	}
	return out
}

// watchLine is what watch prints of one observation, "" for nothing.
func watchLine(c *capture.Capture, ob capture.Observation, policy string) string {
	sv := c.Server(ob.Server)
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
		caps := ", no capabilities"
		if len(sv.Capabilities) > 0 {
			caps = ", capabilities: " + strings.Join(sv.Capabilities, ", ")
		}
		return model.Sanitize(fmt.Sprintf("%s%s initialize from %s %s (%s) protocol %s%s",
			stamp, sv.Label, sv.Client.Name, sv.Client.Version, who, sv.ClientProtocol, caps))
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
	c.EachEvent(func(ev mcpsession.Event) { snap.Apply(ev) })
	return snap
}
