package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/history"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
)

// runCall is `mcplens call [PATH] NAME [--args JSON|@FILE] [--arg K=V]...
// [--server LABEL] [--policy P] [-- CMD ARGS...]`, or `mcplens call [PATH]
// --replay FILE`.
func runCall(args []string, guard *procguard.Guard, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCommand("call", &callCommand{guard: guard}, args, stdio{in: stdin, out: stdout, err: stderr})
}

// callCommand is `mcplens call`: its flags, the config's path and the
// NAME to call.
type callCommand struct {
	login      bool
	metaURL    string // --client-metadata-url
	args       string // --args
	setArgs    argList
	noValidate bool
	replay     string
	elicit     string
	sampling   string
	asTask     bool // --task
	serverFlags
	guard      *procguard.Guard
	fs         *flag.FlagSet
	path, name string
}

func (c *callCommand) parse(fset *flag.FlagSet, args []string) error {
	c.fs = fset
	fset.BoolVar(&c.login, "login", false, "log in to each remote server that asks for it, first or when it refuses a request (opens a browser)")
	fset.StringVar(&c.metaURL, "client-metadata-url", "", "with --login: the HTTPS URL of a client ID metadata document for mcplens")
	fset.StringVar(&c.args, "args", "{}", "the call's arguments: a JSON object, @FILE to read it from a file, or @- from stdin")
	fset.Var(&c.setArgs, "arg", "set one argument, NAME=VALUE, typed by the tool's input schema (repeatable; over --args)")
	fset.BoolVar(&c.noValidate, "no-validate", false, "send the arguments even when they break the tool's input schema, and call a tool clients reject for its x-mcp-header (to test the server's own checks)")
	fset.StringVar(&c.replay, "replay", "", "make again, in order, the calls of this history file (JSON Lines, as --history writes), each on the server and tool it names")
	c.serverFlags.register(fset, c.guard, flagWords{config: "PATH", adhoc: true,
		timeout: "bound on each server's connect and on the call (default: the config's own connect timeout, else 20s; 60s for the call)",
		policy:  "naming policy NAME is resolved under: ", policyDefault: model.Policies()[0].Name})
	fset.StringVar(&c.elicit, "elicit", string(loader.ElicitDecline), "how an elicitation the server asks for is answered: "+elicitNames())
	fset.StringVar(&c.sampling, "sampling", "decline", "how a sampling request the server sends is answered: decline, or reply:TEXT")
	fset.BoolVar(&c.asTask, "task", false, "run the tool as a task: on 2025-11-25 a task-augmented call when its execution.taskSupport is \"optional\" (or \"required\", under a client profile that runs none); on 2026-07-28 the handshake declares the tasks extension, and the server may answer with a task")
	own, command := splitCommand(args)
	pos, err := parseCommand(fset, own, "usage: mcplens call [PATH] NAME [--args JSON | --args @FILE] [--arg NAME=VALUE]... [--server LABEL] [--no-validate]\n"+
		"       [--client NAME[@VERSION]] [--policy P] [--root DIR]... [--elicit accept-defaults|decline|cancel] [--sampling decline|reply:TEXT] [--task]\n"+
		"       mcplens call NAME [flags] -- CMD ARGS...        (a stdio server without a config)\n"+
		"       mcplens call NAME [flags] --url URL [--header NAME:VALUE]...\n"+
		"       mcplens call [PATH] --replay FILE [flags]\n\n"+
		"Resolves NAME through the policy's registry (a registered name, or a wire name exactly one server advertises),\n"+
		"checks the arguments against the tool's input schema, makes one call and prints the frames as they cross the\n"+
		"wire (the request, the server's requests and logs, the response), then the result. --server starts only that\n"+
		"server. Progress goes to stderr.\n"+
		"Exit status: 0 on success, 1 when the call failed or the tool reported isError, 2 for a usage or config error,\n"+
		"arguments that break the input schema, or a NAME that resolves to no route or to several.\n\n")
	if err != nil {
		return err
	}
	if err := checkMetadataURL(c.metaURL); err != nil {
		return err
	}
	c.where.command = command
	switch {
	case c.replay != "" && len(pos) <= 1 && (len(pos) == 0 || !c.where.given()):
		c.path = first(pos)
	case c.replay == "" && len(pos) == 1:
		c.name = pos[0]
	case c.replay == "" && len(pos) == 2 && !c.where.given():
		c.path, c.name = pos[0], pos[1]
	default:
		return usageShown(fset)
	}
	return nil
}

// Run settles the servers and makes the call, or the calls of --replay.
func (c *callCommand) Run(ctx context.Context, std stdio) error {
	fset, g, stderr := c.fs, &c.serverFlags, std.err
	answers, err := callAnswers(c.elicit, c.sampling)
	if err == nil {
		_, _, err = g.who.profile()
	}
	if err != nil {
		return usageError(err)
	}
	policy, ok := model.PolicyNamed(g.who.policy(fset, g.policy))
	if !ok {
		return usagef("unknown policy %q (want one of: %s)", g.policy, policyNames())
	}
	if err := g.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	callArgs, err := readArgs(c.args, std.in, g.limits.WithDefaults().Document)
	if err != nil {
		return usageError(err)
	}
	var records []history.Record
	if c.replay != "" {
		if flagSet(fset, "args") || len(c.setArgs) > 0 {
			return usageError(errors.New("--replay makes the calls as recorded: no --args or --arg"))
		}
		if records, err = readReplay(c.replay, g.limits); err != nil {
			return usageError(err)
		}
	}
	cfg, err := g.where.load(c.path, config.Options{Format: g.configFormat, MaxSize: g.limits.WithDefaults().Config})
	if err == nil && records != nil {
		cfg, err = replayed(cfg, records)
	}
	if err != nil {
		return usageError(err)
	}
	// A config in a profiled client's format calls as that client, as the
	// interface and check connect (clientOptions.adopt).
	g.who.adopt(cfg, fset)
	if p, ok := model.PolicyNamed(g.who.policy(fset, g.policy)); ok {
		policy = p
	}

	// A signal ends the run with a cause: the reason a server is given
	// when its call is cancelled (loader.Call).
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	go func() {
		select {
		case sig := <-signals:
			cancel(fmt.Errorf("mcplens call was interrupted (%v)", sig))
		case <-ctx.Done():
		}
	}()
	opts := g.who.session(cfg, loader.Options{Timeout: g.timeout, Limits: g.limits, Answers: answers})
	if c.asTask {
		opts.Handshake = withTasksExtension(opts.Handshake)
	}
	if c.login {
		opts.HTTPAuth = loginFirst(ctx, cfg, c.metaURL, stderr)
	}
	started := time.Now()
	fmt.Fprintf(stderr, "mcplens call: connecting to %s...\n", serverCount(len(cfg.Servers)))
	session := loader.Open(cfg, opts)
	defer session.Close()
	snap, err := settle.Session(ctx, cfg, session, g.timeout)
	if errors.Is(err, settle.ErrInterrupted) {
		return failError(errors.New("interrupted"))
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
	}
	fmt.Fprintf(stderr, "mcplens call: %s in %s\n", settledCount(snap), time.Since(started).Round(time.Millisecond))
	cl := &caller{ctx: ctx, std: std, session: session, snap: snap, limit: callLimit(g.timeout), validate: !c.noValidate,
		asTask: c.asTask, runsTasks: opts.Handshake.Capabilities.RunsTasks()}
	if records != nil {
		return cl.replay(c.replay, records)
	}

	reg := policy.Apply(snap.Catalogues())
	rt, how, refused, err := cl.resolve(reg, c.name)
	if refused != nil {
		return refused
	}
	if err != nil {
		return unresolved(err, reg, c.name, snap)
	}
	if callArgs, err = withArgs(callArgs, c.setArgs, inputSchema(snap, rt)); err != nil {
		return usageError(err)
	}
	title := fmt.Sprintf("call %s (%s under %s) → server %s, wire name %s", cl.san(c.name), how, policy.Name, cl.san(rt.Server), cl.san(rt.Wire))
	return cl.call(rt, title, callArgs)
}

// splitCommand splits a command line at its first "--": what comes before
// is mcplens's, what comes after the command of a stdio server.
func splitCommand(args []string) (own, command []string) {
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

func serverCount(n int) string {
	if n == 1 {
		return "1 server"
	}
	return fmt.Sprintf("%d servers", n)
}

// settledCount says how the servers settled: "3 ready, 1 failed".
func settledCount(snap *surface.Snapshot) string {
	counts := map[mcpsession.State]int{}
	for _, sv := range snap.Servers {
		counts[sv.State]++
	}
	line := fmt.Sprintf("%d ready", counts[mcpsession.Ready])
	if n := counts[mcpsession.Failed]; n > 0 {
		line += fmt.Sprintf(", %d failed", n)
	}
	if n := counts[mcpsession.Connecting]; n > 0 {
		line += fmt.Sprintf(", %d still connecting", n)
	}
	return line
}

// indent returns a JSON value indented, or as it came when it is not JSON.
func indent(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// sanLines sanitizes each line of s, keeping the line breaks.
func sanLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = model.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// callAnswers reads --elicit and --sampling.
func callAnswers(elicit, sampling string) (loader.Answers, error) {
	var a loader.Answers
	if !slices.Contains(loader.ElicitAnswers(), loader.ElicitAnswer(elicit)) {
		return a, fmt.Errorf("unknown --elicit %q (want one of: %s)", elicit, elicitNames())
	}
	a.Elicit = loader.ElicitAnswer(elicit)
	switch reply, ok := strings.CutPrefix(sampling, "reply:"); {
	case ok && reply != "":
		a.SamplingReply = reply
	case sampling != "decline":
		return a, fmt.Errorf("unknown --sampling %q (want decline or reply:TEXT)", sampling)
	}
	return a, nil
}

func elicitNames() string {
	var names []string
	for _, e := range loader.ElicitAnswers() {
		names = append(names, string(e))
	}
	return strings.Join(names, ", ")
}
