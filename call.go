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

// runCall is `mcplens call [PATH] NAME [--args JSON|@FILE] [--policy P]`.
func runCall(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("mcplens call", flag.ContinueOnError)
	fset.SetOutput(stderr)
	policyName := fset.String("policy", model.Policies()[0].Name, "naming policy NAME is resolved under: "+policyNames())
	login := fset.Bool("login", false, "log in first to each remote server with no OAuth token (opens a browser)")
	argsFlag := fset.String("args", "{}", "the call's arguments: a JSON object, @FILE to read it from a file, or @- from stdin")
	timeout := fset.Duration("timeout", 0, "bound on each server's connect and on the call (default: the config's own connect timeout, else 20s; 60s for the call)")
	var limits loader.Limits
	fset.Var(&limits, "limit", "raise one input limit, NAME=SIZE (repeatable; or MCPLENS_LIMIT_NAME): "+limitHelp())
	configFormat := fset.String("config-format", "", "read PATH as this client's format (default: detected): "+formatNames())
	var who clientOptions
	who.register(fset)
	elicit := fset.String("elicit", string(loader.ElicitDecline), "how an elicitation the server asks for is answered: "+elicitNames())
	sampling := fset.String("sampling", "decline", "how a sampling request the server sends is answered: decline, or reply:TEXT")
	pos, code, ok := parseCommand(fset, args, stderr, "usage: mcplens call [PATH] NAME [--args JSON | --args @FILE] [--client NAME[@VERSION]] [--policy P]\n"+
		"       [--root DIR]... [--elicit accept-defaults|decline|cancel] [--sampling decline|reply:TEXT]\n\n"+
		"Resolves NAME through the policy's registry (a registered name, or a wire name exactly one server advertises),\n"+
		"makes one call and prints the request and response frames as they crossed the wire, then the result.\n"+
		"Exit status: 0 on success, 1 when the call failed or the tool reported isError, 2 for a usage or config error\n"+
		"or a NAME that resolves to no route or to several.\n\n")
	if !ok {
		return code
	}
	var path, name string
	switch len(pos) {
	case 1:
		name = pos[0]
	case 2:
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
	cfg, err := configWith(path, config.Options{Format: *configFormat, MaxSize: limits.WithDefaults().Config})
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
	if *login {
		loginFirst(ctx, cfg, stderr)
	}
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

	reg := policy.Apply(snap.Catalogues())
	// What is printed is masked as check's report is: the config's secrets
	// and credential syntax in messages, its secrets in frames.
	red := snap.Redact
	rt, how, err := reg.Resolve(name)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %v\n", err)
		for _, st := range snap.Servers {
			if !st.Listed {
				fmt.Fprintf(stderr, "  (server %s is not in the registry: %s %s)\n", model.Sanitize(st.Label()), st.State, model.Sanitize(red.Text(st.Err)))
			}
		}
		return exitUsage
	}

	san := func(s string) string { return model.Sanitize(red.Values(s)) }
	fmt.Fprintf(stdout, "call %s (%s under %s) → server %s, wire name %s\n", san(name), how, policy.Name, san(rt.Server), san(rt.Wire))
	start := time.Now()
	res, err := callWithin(ctx, session, rt, callArgs, callLimit(*timeout))
	res.Result = json.RawMessage(red.Values(string(res.Result))) // a result can echo the config's secrets too
	if len(res.Request) > 0 {
		fmt.Fprintf(stdout, "→ %s %s\n", san(rt.Server), san(string(res.Request)))
	}
	for _, f := range serverExchanges(session.FrameLog(rt.Server), start) {
		arrow := "←"
		if f.Dir == loader.Out {
			arrow = "→"
		}
		fmt.Fprintf(stdout, "%s %s %s\n", arrow, san(rt.Server), san(string(f.Bytes)))
	}
	if len(res.Response) > 0 {
		fmt.Fprintf(stdout, "← %s %s%s\n", san(rt.Server), san(string(res.Response)), res.CutMark(err))
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens call: %s\n", model.Sanitize(red.Text(err.Error())))
		return exitFound
	}
	fmt.Fprintf(stdout, "result (isError %v, %s):\n%s\n", res.IsError, res.Latency.Round(time.Millisecond), sanLines(indent(res.Result)))
	if si, ok := snap.Index(rt.Server); ok && rt.Index < len(snap.Servers[si].Tools) {
		for _, f := range surface.OutputFindings(rt.Server, snap.Servers[si].Tools[rt.Index], res.Result, red) {
			fmt.Fprintf(stdout, "%s %s: %s\n", f.Severity, f.Kind, model.Sanitize(f.Evidence))
		}
	}
	if res.IsError {
		return exitFound
	}
	return exitOK
}

// readArgs reads --args: JSON, @FILE or @- for stdin. It must be an object.
func readArgs(v string, stdin io.Reader) (json.RawMessage, error) {
	data := []byte(v)
	if from, ok := strings.CutPrefix(v, "@"); ok {
		var err error
		if from == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(from)
		}
		if err != nil {
			return nil, fmt.Errorf("reading --args: %w", err)
		}
	}
	data = bytes.TrimSpace(data)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("--args is not a JSON object: %s", model.Sanitize(clip(string(data), 80)))
	}
	return data, nil
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

// serverExchanges are the requests the server sent mcplens since start
// (roots/list, elicitation/create, sampling/createMessage, ping),
// mcplens's answers to them and the server's log messages
// (notifications/message), as they crossed the wire.
func serverExchanges(log *loader.FrameLog, start time.Time) []loader.Frame {
	var out []loader.Frame
	if log == nil {
		return nil
	}
	for _, f := range log.Frames() {
		if f.At.Before(start) || f.Junk {
			continue
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(f.Bytes, &msg) != nil {
			continue
		}
		if len(msg.ID) == 0 { // a notification: only the server's logs are shown
			if f.Dir == loader.In && msg.Method == "notifications/message" {
				out = append(out, f)
			}
			continue
		}
		// In: a request has a method; Out: an answer has none.
		if (f.Dir == loader.In) == (msg.Method != "") {
			out = append(out, f)
		}
	}
	return out
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
