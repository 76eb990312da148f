package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// A caller makes the calls of `mcplens call` on a settled session: one
// for NAME, or one per record with --replay.
type caller struct {
	ctx       context.Context
	std       stdio
	session   *loader.Session
	snap      *surface.Snapshot
	limit     time.Duration // callLimit
	validate  bool          // not --no-validate
	asTask    bool          // --task (calltask.go)
	runsTasks bool          // the client profile runs tasks
}

// san masks the config's secrets in s and escapes what would act on a
// terminal: what is printed is masked as check's report is.
func (c *caller) san(s string) string { return model.Sanitize(c.snap.Redact.Values(s)) }

// call checks args against the input schema of the row rt routes to
// (unless --no-validate), then calls it, printing what crossed the wire
// as it crossed and then the result; title is the line that says which
// call it is. Its error carries the exit code of that call.
func (c *caller) call(rt model.Route, title string, args json.RawMessage) error {
	if c.validate {
		if err := c.valid(rt, args); err != nil {
			return err
		}
	}
	fmt.Fprintln(c.std.out, title)
	printer := newWirePrinter(c.std.out, rt.Server, c.session.FrameLog(rt.Server), c.san)
	printer.start(c.session.Events())
	ctx := loader.WithProgress(c.taskContext(c.ctx, rt), func(p loader.Progress) { fmt.Fprintf(c.std.err, "mcplens call: %s\n", c.san(progressLine(p))) })
	res, err := callWithin(ctx, c.session, rt, args, c.limit)
	res.Result = json.RawMessage(c.snap.Redact.Values(string(res.Result))) // a result can echo the config's secrets too
	printer.answered(res, err)
	c.printRuns(res)
	if err != nil {
		return failError(errors.New(model.Sanitize(c.snap.Redact.Text(err.Error()))))
	}
	fmt.Fprintf(c.std.out, "result (isError %v, %s):\n%s\n", res.IsError, res.Latency.Round(time.Millisecond), sanLines(indent(elideBase64(res.Result))))
	if si, ok := c.snap.Index(rt.Server); ok && rt.Index < len(c.snap.Servers[si].Tools) {
		for _, f := range surface.OutputFindings(rt.Server, c.snap.Servers[si].Tools[rt.Index], res.Result, c.snap.Redact) {
			fmt.Fprintf(c.std.out, "%s %s: %s\n", f.Severity, f.Kind, model.Sanitize(f.Evidence))
		}
	}
	if res.IsError {
		return exitWith(exitFound)
	}
	return nil
}

// valid checks args against the input schema of the row rt routes to
// with the interface's check (argcheck): nil when they may be sent, a
// usageError naming each violation by its JSON pointer when they break
// it. A schema that cannot check anything (it does not compile) is said
// and the arguments go as they are, for the server to judge.
func (c *caller) valid(rt model.Route, args json.RawMessage) error {
	problems, err := argcheck.Validate(inputSchema(c.snap, rt), args)
	if err != nil {
		fmt.Fprintf(c.std.err, "mcplens call: the input schema of %s checks nothing (%s); the arguments go unchecked\n", c.san(rt.Wire), c.san(err.Error()))
		return nil
	}
	if len(problems) == 0 {
		return nil
	}
	var after strings.Builder
	for _, p := range problems {
		fmt.Fprintf(&after, "  %s\n", c.san(p.String()))
	}
	return &exitError{code: exitUsage, err: brokenSchema{wire: c.san(rt.Wire), server: c.san(rt.Server)}, after: after.String()}
}

// brokenSchema is the line that heads the violations of a tool's input
// schema (wire, on server; both sanitized).
type brokenSchema struct{ wire, server string }

func (b brokenSchema) Error() string {
	return fmt.Sprintf("the arguments break the input schema of %s on %s; nothing was sent (--no-validate sends them anyway):", b.wire, b.server)
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
