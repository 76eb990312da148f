package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/apphost"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/opener"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
)

// framePoll is how often app prints the frames that crossed since.
const framePoll = 100 * time.Millisecond

// runApp is `mcplens app [CONFIG] TOOL [--args JSON] [--no-open]`: the
// tool's MCP App, hosted on loopback until the host's lifetime ends or an
// interrupt, its frames printed as they cross.
func runApp(args []string, guard *procguard.Guard, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCommand("app", &appCommand{guard: guard}, args, stdio{in: stdin, out: stdout, err: stderr})
}

// appCommand is `mcplens app`: its flags, the config's path and the TOOL.
type appCommand struct {
	args     string // --args
	noOpen   bool
	lifetime time.Duration
	serverFlags
	guard      *procguard.Guard
	fs         *flag.FlagSet
	path, name string
}

func (c *appCommand) parse(fset *flag.FlagSet, args []string) error {
	c.fs = fset
	fset.StringVar(&c.args, "args", "{}", "the tool's arguments: a JSON object, @FILE to read it from a file, or @- from stdin")
	fset.BoolVar(&c.noOpen, "no-open", false, "print the host page's URL, open no browser")
	fset.DurationVar(&c.lifetime, "lifetime", apphost.Lifetime, "how long the host serves the app before it stops")
	c.serverFlags.register(fset, c.guard, flagWords{config: "CONFIG", adhoc: true, policy: "naming policy TOOL is resolved under: ", policyDefault: model.Policies()[0].Name})
	own, command := splitCommand(args)
	pos, err := parseCommand(fset, own, "usage: mcplens app [CONFIG] TOOL [--args JSON | --args @FILE] [--no-open] [--lifetime D] [--client NAME[@VERSION]] [--server LABEL]\n"+
		"       mcplens app TOOL [flags] -- CMD ARGS...   (a stdio server without a config)\n\n"+
		"Hosts the MCP App of TOOL (its _meta.ui.resourceUri) on a loopback-only page, the app in a sandboxed iframe\n"+
		"under its resource's content security policy, and opens it in the browser (--no-open prints the URL). The\n"+
		"app's messages and the host's answers are printed as they cross, with the server frames they cause; a link\n"+
		"or a message the app asks for is shown and refused. Runs until --lifetime passes or an interrupt.\n"+
		"Exit status: 0 when the host ran its course, 1 when the app could not be hosted, 2 for a usage or config error.\n\n")
	if err != nil {
		return err
	}
	c.where.command = command
	switch {
	case len(pos) == 1:
		c.name = pos[0]
	case len(pos) == 2 && !c.where.given():
		c.path, c.name = pos[0], pos[1]
	default:
		return usageShown(fset)
	}
	return nil
}

// Run settles the servers, hosts the app and prints its frames until the
// host's lifetime ends or an interrupt.
func (c *appCommand) Run(ctx context.Context, std stdio) error {
	g, fset, stdout, stderr := &c.serverFlags, c.fs, std.out, std.err
	if _, _, err := g.who.profile(); err != nil {
		return usageError(err)
	}
	if err := g.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	toolArgs, err := readArgs(c.args, std.in, g.limits.WithDefaults().Document)
	if err != nil {
		return usageError(err)
	}
	cfg, err := g.where.load(c.path, config.Options{Format: g.configFormat, MaxSize: g.limits.WithDefaults().Config})
	if err != nil {
		return usageError(err)
	}
	g.who.adopt(cfg, fset)
	policy, ok := model.PolicyNamed(g.who.policy(fset, g.policy))
	if !ok {
		return usagef("unknown policy %q (want one of: %s)", g.policy, policyNames())
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	session := loader.Open(cfg, g.who.session(cfg, loader.Options{Timeout: g.timeout, Limits: g.limits}))
	defer session.Close()
	snap, err := settle.Session(ctx, cfg, session, g.timeout)
	if errors.Is(err, settle.ErrInterrupted) {
		return failError(err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens app: %v\n", err)
	}
	reg := policy.Apply(snap.Catalogues())
	rt, _, err := reg.Resolve(c.name)
	if err != nil {
		return unresolved(err, reg, c.name, snap)
	}
	o, err := appOptions(snap, rt)
	if err != nil {
		return usageError(err)
	}
	o.Args, o.Lifetime, o.Version = toolArgs, c.lifetime, model.NeutralHandshake().ClientInfo.Version
	o.Log = session.FrameLog(o.Server)
	o.Read = func(ctx context.Context, uri string) (json.RawMessage, error) {
		r, err := session.ReadResource(ctx, o.Server, uri)
		return r.Result, err
	}
	o.Call = func(ctx context.Context, wire string, args json.RawMessage) (json.RawMessage, error) {
		r, err := session.Call(ctx, o.Server, wire, args)
		return r.Result, err
	}
	o.Mask = snap.Redact.Text
	o.Notice = func(text string) { fmt.Fprintf(stderr, "mcplens app: %s\n", text) } // no one to ask: links and messages refused
	_, seen, _ := o.Log.Since(0)
	host, err := apphost.Start(ctx, o)
	if err != nil { // the server's error, quoted: its escapes shown, the config's secrets masked
		return failError(errors.New(model.Sanitize(snap.Redact.Text(err.Error()))))
	}
	defer host.Close()
	csp, perms := host.Resources()
	fmt.Fprintf(stderr, "mcplens app: hosting the app of %s on %s under CSP %s\n", model.Sanitize(o.Tool.Name), model.Sanitize(o.Server), csp)
	if len(perms) > 0 {
		fmt.Fprintf(stderr, "mcplens app: the app asks for %s: not granted\n", strings.Join(perms, ", "))
	}
	fmt.Fprintln(stdout, host.URL())
	if !c.noOpen {
		if err := opener.Open(host.URL()); err != nil {
			fmt.Fprintf(stderr, "mcplens app: open it yourself: %v\n", err)
		}
	}
	tick := time.NewTicker(framePoll)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			seen = printAppFrames(stdout, o.Log, seen, snap.Redact.Values)
		case <-host.Done():
			printAppFrames(stdout, o.Log, seen, snap.Redact.Values)
			fmt.Fprintln(stderr, "mcplens app: the host's lifetime ended")
			return nil
		case <-ctx.Done():
			printAppFrames(stdout, o.Log, seen, snap.Redact.Values)
			fmt.Fprintln(stderr, "mcplens app: interrupted")
			return nil
		}
	}
}

// appOptions finds the app of the tool rt routes to.
func appOptions(snap *surface.Snapshot, rt model.Route) (apphost.Options, error) {
	i, ok := snap.Index(rt.Server)
	if !ok || rt.Index >= len(snap.Servers[i].Tools) {
		return apphost.Options{}, fmt.Errorf("server %s is gone", model.Sanitize(rt.Server))
	}
	sv := &snap.Servers[i]
	return apphost.Options{Server: sv.Label(), Tool: sv.Tools[rt.Index], Tools: sv.Tools, Resources: sv.Offers.Resources}, nil
}

// printAppFrames prints the frames of log after the first seen, as call
// prints a call's: the server's own as "→ LABEL LINE", the app's as
// "→ LABEL app TOOL LINE"; it returns the frames seen now.
func printAppFrames(out io.Writer, log *mcpsession.FrameLog, seen int, mask func(string) string) int {
	frames, total, lost := log.Since(seen)
	if lost > 0 {
		fmt.Fprintf(out, "… %d frames not kept\n", lost)
	}
	for _, f := range frames {
		if f.Junk {
			continue
		}
		who := f.Server
		if f.App != "" {
			who += " app " + f.App
		}
		line := fmt.Sprintf("%s %s %s%s", arrow(f.Dir), who, string(f.Bytes), cutMark(f))
		if f.Problem != "" {
			line += " [" + f.Problem + "]"
		}
		fmt.Fprintln(out, model.Sanitize(mask(line)))
	}
	return total
}
