package main

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

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// runCall is `mcplens call [PATH] NAME [--args JSON|@FILE] [--arg K=V]...
// [--server LABEL] [--policy P] [-- CMD ARGS...]`.
func runCall(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("mcplens call", flag.ContinueOnError)
	fset.SetOutput(stderr)
	policyName := fset.String("policy", model.Policies()[0].Name, "naming policy NAME is resolved under: "+policyNames())
	argsFlag := fset.String("args", "{}", "the call's arguments: a JSON object, @FILE to read it from a file, or @- from stdin")
	var setArgs argList
	fset.Var(&setArgs, "arg", "set one argument, NAME=VALUE, typed by the tool's input schema (repeatable; over --args)")
	timeout := fset.Duration("timeout", 0, "bound on each server's connect and on the call (default: the config's own connect timeout, else 20s; 60s for the call)")
	var limits loader.Limits
	fset.Var(&limits, "limit", "raise one input limit, NAME=SIZE (repeatable; or MCPLENS_LIMIT_NAME): "+limitHelp())
	configFormat := fset.String("config-format", "", "read PATH as this client's format (default: detected): "+formatNames())
	var who clientOptions
	who.register(fset)
	var where adhoc
	where.register(fset)
	elicit := fset.String("elicit", string(loader.ElicitDecline), "how an elicitation the server asks for is answered: "+elicitNames())
	sampling := fset.String("sampling", "decline", "how a sampling request the server sends is answered: decline, or reply:TEXT")
	own, command := splitCommand(args)
	pos, code, ok := parseCommand(fset, own, stderr, "usage: mcplens call [PATH] NAME [--args JSON | --args @FILE] [--arg NAME=VALUE]... [--server LABEL]\n"+
		"       [--client NAME[@VERSION]] [--policy P] [--root DIR]... [--elicit accept-defaults|decline|cancel] [--sampling decline|reply:TEXT]\n"+
		"       mcplens call NAME [flags] -- CMD ARGS...        (a stdio server without a config)\n"+
		"       mcplens call NAME [flags] --url URL [--header NAME:VALUE]...\n\n"+
		"Resolves NAME through the policy's registry (a registered name, or a wire name exactly one server advertises),\n"+
		"makes one call and prints the frames as they cross the wire (the request, the server's requests and logs, the\n"+
		"response), then the result. --server starts only that server. Progress goes to stderr.\n"+
		"Exit status: 0 on success, 1 when the call failed or the tool reported isError, 2 for a usage or config error\n"+
		"or a NAME that resolves to no route or to several.\n\n")
	if !ok {
		return code
	}
	where.command = command
	var path, name string
	switch {
	case len(pos) == 1:
		name = pos[0]
	case len(pos) == 2 && !where.given():
		path, name = pos[0], pos[1]
	default:
		fset.Usage()
		return exitUsage
	}
	answers, err := callAnswers(*elicit, *sampling)
	if err == nil {
		_, _, err = who.profile()
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		return exitUsage
	}
	policy, ok := model.PolicyNamed(who.policy(fset, *policyName))
	if !ok {
		fmt.Fprintf(stderr, "mcplens call: unknown policy %q (want one of: %s)\n", *policyName, policyNames())
		return exitUsage
	}
	callArgs, err := readArgs(*argsFlag, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		return exitUsage
	}
	if err := limits.FromEnv(nil); err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		return exitUsage
	}
	cfg, err := where.load(path, config.Options{Format: *configFormat, MaxSize: limits.WithDefaults().Config})
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		return exitUsage
	}
	// A config in a profiled client's format calls as that client, as the
	// interface and check connect (clientOptions.adopt).
	who.adopt(cfg, fset)
	if p, ok := model.PolicyNamed(who.policy(fset, *policyName)); ok {
		policy = p
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	opts := who.session(cfg, loader.Options{Timeout: *timeout, Limits: limits, Answers: answers})
	started := time.Now()
	fmt.Fprintf(stderr, "mcplens call: connecting to %s...\n", serverCount(len(cfg.Servers)))
	session := open(cfg, opts)
	defer session.Close()
	snap, err := settle(ctx, cfg, session, *timeout)
	if errors.Is(err, errInterrupted) {
		fmt.Fprintln(stderr, "mcplens call: interrupted")
		return exitFound
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
	}
	fmt.Fprintf(stderr, "mcplens call: %s in %s\n", settledCount(snap), time.Since(started).Round(time.Millisecond))

	reg := policy.Apply(snap.Catalogues())
	// What is printed is masked as check's report is: the config's secrets
	// and credential syntax in messages, its secrets in frames.
	red := snap.Redact
	rt, how, err := reg.Resolve(name)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		if near := suggest(reg, name); len(near) > 0 {
			fmt.Fprintf(stderr, "  did you mean: %s\n", model.Sanitize(strings.Join(near, ", ")))
		}
		for _, st := range snap.Servers {
			if !st.Listed {
				fmt.Fprintf(stderr, "  (server %s is not in the registry: %s %s)\n", model.Sanitize(st.Label()), st.State, model.Sanitize(red.Text(st.Err)))
			}
		}
		return exitUsage
	}
	if callArgs, err = withArgs(callArgs, setArgs, inputSchema(snap, rt)); err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		return exitUsage
	}

	san := func(s string) string { return model.Sanitize(red.Values(s)) }
	fmt.Fprintf(stdout, "call %s (%s under %s) → server %s, wire name %s\n", san(name), how, policy.Name, san(rt.Server), san(rt.Wire))
	printer := newWirePrinter(stdout, rt.Server, session.FrameLog(rt.Server), san)
	printer.start(session.Events())
	ctx = loader.WithProgress(ctx, func(p loader.Progress) { fmt.Fprintf(stderr, "mcplens call: %s\n", san(progressLine(p))) })
	res, err := callWithin(ctx, session, rt, callArgs, callLimit(*timeout))
	res.Result = json.RawMessage(red.Values(string(res.Result))) // a result can echo the config's secrets too
	printer.answered(res, err)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %s\n", model.Sanitize(red.Text(err.Error())))
		return exitFound
	}
	fmt.Fprintf(stdout, "result (isError %v, %s):\n%s\n", res.IsError, res.Latency.Round(time.Millisecond), sanLines(indent(elideBase64(res.Result))))
	if res.IsError {
		return exitFound
	}
	return exitOK
}

// splitCommand splits a command line at its first "--": what comes before
// is mcplens's, what comes after the command of a stdio server.
func splitCommand(args []string) (own, command []string) {
	if i := slices.Index(args, "--"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

// inputSchema is the input schema of the row rt routes to.
func inputSchema(snap *surface.Snapshot, rt model.Route) json.RawMessage {
	if i, ok := snap.Index(rt.Server); ok {
		if tools := snap.Servers[i].Tools; rt.Index >= 0 && rt.Index < len(tools) {
			return tools[rt.Index].InputSchema
		}
	}
	return nil
}

// progressLine words a notifications/progress: "progress 3/10: step 3".
func progressLine(p loader.Progress) string {
	line := fmt.Sprintf("progress %v", p.Progress)
	if p.Total > 0 {
		line += fmt.Sprintf("/%v", p.Total)
	}
	if p.Message != "" {
		line += ": " + p.Message
	}
	return line
}

func serverCount(n int) string {
	if n == 1 {
		return "1 server"
	}
	return fmt.Sprintf("%d servers", n)
}

// settledCount says how the servers settled: "3 ready, 1 failed".
func settledCount(snap *surface.Snapshot) string {
	counts := map[loader.State]int{}
	for _, sv := range snap.Servers {
		counts[sv.State]++
	}
	line := fmt.Sprintf("%d ready", counts[loader.Ready])
	if n := counts[loader.Failed]; n > 0 {
		line += fmt.Sprintf(", %d failed", n)
	}
	if n := counts[loader.Connecting]; n > 0 {
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
