package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/ui"
)

// fileMemoryLimit is the soft memory limit (debug.SetMemoryLimit;
// GOMEMLIMIT overrides it) of the commands that read files that can be
// big: check of recordings, diff, tap har. What they keep of a recording
// of 50,000 servers peaks near 200 MB, and the collector's default
// headroom would double that; near the limit it collects sooner instead.
const fileMemoryLimit = 200 << 20

// limitFileMemory sets fileMemoryLimit, unless GOMEMLIMIT is set.
func limitFileMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(fileMemoryLimit)
	}
}

// isCapture reports whether args name tap recordings to open offline: an
// argument that is not a flag is one (a flag's value, such as a policy's
// name, is not a file that begins as a recording).
func isCapture(args []string) bool {
	for _, a := range args {
		if a == "--" {
			continue
		}
		if !strings.HasPrefix(a, "-") && capture.IsRecording(a) {
			return true
		}
	}
	return false
}

// runOffline is `mcplens CAPTURE.jsonl…` (interactive, unless stdout is
// not a terminal) and `mcplens check CAPTURE.jsonl…` (report): the servers
// a tap recorded, opened as a surface with no server started, under the
// policy of the client whose clientInfo the recording shows, and the calls
// the client made, each marked matching or contradicting the route the
// registry predicts.
func runOffline(args []string, interactive bool, hooks Hooks, stdout, stderr io.Writer) int {
	return runCommand("", &offlineCommand{interactive: interactive, hooks: hooks}, args, stdio{out: stdout, err: stderr})
}

// offlineCommand is `mcplens [check] CAPTURE.jsonl...`: check's report
// flags that apply to a recording, and the recordings' paths.
type offlineCommand struct {
	checkOptions
	interactive bool
	hooks       Hooks
	paths       []string
}

func (c *offlineCommand) parse(fs *flag.FlagSet, args []string) (err error) {
	c.checkOptions = defaultCheckOptions()
	o := &c.checkOptions
	fs.StringVar(&o.policy, "policy", "", "naming policy (default: the recorded client's)")
	fs.StringVar(&o.providers, "providers", o.providers, "provider profiles to check names against, comma-separated, or all")
	fs.StringVar(&o.format, "format", o.format, "report format: "+strings.Join(report.Formats(), ", "))
	fs.StringVar(&o.failOn, "fail-on", o.failOn, "exit 1 when a finding is at or above this level, or a call contradicts its route: error, warning or never")
	registerLimits(fs, &o.limits)
	c.paths, err = parseCommand(fs, args, "usage: mcplens [check] CAPTURE.jsonl... [--policy P] [--providers LIST] [--format text|json|markdown] [--fail-on LEVEL] [--limit NAME=SIZE]\n\n"+
		"Opens what `mcplens tap` recorded as a surface, starting no server: the servers the client was shown,\n"+
		"under the recorded client's policy, and every call it made, matching or contradicting the predicted route.\n\n")
	if err != nil {
		return err
	}
	if err := o.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	return nil
}

// Run reads the recordings and prints the report, or opens the interface
// on them.
func (c *offlineCommand) Run(_ context.Context, std stdio) error {
	o, paths, stdout, stderr := c.checkOptions, c.paths, std.out, std.err
	interactive := c.interactive
	cp, err := capture.Read(capture.ReadOptions{Lines: o.limits.Lines(), Frames: interactive && isTerminal(os.Stdout)}, paths...)
	if err != nil {
		return usageError(err)
	}
	if cp.Skipped != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", cp.Skipped)
	}
	if cp.LetGo > 0 {
		fmt.Fprintf(stderr, "mcplens: the recordings hold over %d calls: the oldest %d are not judged\n", capture.MaxReadCalls, cp.LetGo)
	}
	info, profile, known := cp.Client()
	if o.policy == "" {
		o.policy = model.Policies()[0].Name
		if known {
			o.policy = profile.Policy
		}
	}
	if err := o.validate(); err != nil {
		return usageError(err)
	}
	cfg := &config.Config{Path: strings.Join(paths, " "), Servers: cp.Specs()}
	who := clientOf(info, profile, known)
	if interactive && isTerminal(os.Stdout) {
		return offlineUI(cfg, cp, o.policy, who, c.hooks)
	}
	snap := captureSnapshot(cp)
	r := checkReport(cfg, snap, o, nil, nil)
	r.Client, r.ClientSource = who, "the recorded clientInfo"
	if err := report.Write(stdout, r, o.format); err != nil {
		return failError(err)
	}
	policy, _ := model.PolicyNamed(o.policy)
	reg := captureRegistry(cp, policy)
	// The observed calls follow the text report alone: after a JSON, SARIF
	// or JUnit document they would make it two, and in Markdown they would
	// be server text outside its escaping.
	lines := o.format == "text"
	contradicted := 0
	if lines && len(cp.Calls) > 0 {
		fmt.Fprintf(stdout, "\nObserved calls (%d), against the %s registry:\n", len(cp.Calls), o.policy)
	}
	for _, call := range cp.Calls {
		v := model.JudgeCall(reg, call.Server, call.Wire)
		if !v.Matches {
			contradicted++
		}
		if lines {
			fmt.Fprintln(stdout, "  "+callLine(call, v))
		}
	}
	if lvl, ok := failOnLevels[o.failOn]; ok {
		if worst, found := r.Worst(); found && worst >= lvl || contradicted > 0 {
			return exitWith(exitFound)
		}
	}
	return nil
}

// clientOf names the recorded client: its profile's key, else its
// clientInfo as sent.
func clientOf(info model.ClientInfo, profile model.Client, known bool) string {
	switch {
	case known:
		return profile.Key()
	case info.Name != "":
		return model.Sanitize(info.Name + " " + info.Version + " (no profile)")
	}
	return ""
}

// offlineUI opens the interface on a capture.
func offlineUI(cfg *config.Config, c *capture.Capture, policy, who string, hooks Hooks) error {
	m := ui.New(ui.Options{Title: cfg.Path + " (offline recording)", Servers: cfg.Servers, Backend: capture.NewBackend(c), Policy: policy, Client: who})
	if _, err := tea.NewProgram(hooks.wrap(m)).Run(); err != nil {
		return failError(err)
	}
	return nil
}

// maxArgs is how much of a call's arguments a line shows.
const maxArgs = 120

// callLine is one observed call on one line: its server, wire name,
// arguments (cut, sanitized), latency and verdict.
func callLine(c *capture.Call, v model.CallVerdict) string {
	args := string(c.Args)
	if len(args) > maxArgs {
		args = args[:maxArgs] + "…"
	}
	mark := "✓ matches"
	if !v.Matches {
		mark = "✗ contradicts"
	}
	return model.Sanitize(fmt.Sprintf("%s %s %s (%s) %s: %s", c.Server, c.Wire, args, c.Took(), mark, v.Why))
}
