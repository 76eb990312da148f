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

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/audit/probe"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/ui"
)

// auditOptions are audit's flags.
type auditOptions struct {
	serverFlags
	format, failOn string
	calls          auditCalls
}

// auditCalls are --call NAME, each with the --args JSON after it.
type auditCalls []probe.Call

func (c *auditCalls) String() string { return "" }
func (c *auditCalls) Set(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("--call wants a tool name")
	}
	*c = append(*c, probe.Call{Name: name})
	return nil
}

// auditArgs is --args: the arguments of the --call before it.
type auditArgs struct{ calls *auditCalls }

func (a auditArgs) String() string { return "" }
func (a auditArgs) Set(v string) error {
	if len(*a.calls) == 0 {
		return errors.New("--args goes after the --call it is for")
	}
	if err := argcheck.Syntax([]byte(v)); err != nil {
		return err
	}
	last := &(*a.calls)[len(*a.calls)-1]
	if last.Args != nil {
		return fmt.Errorf("--call %s has --args already", last.Name)
	}
	last.Args = json.RawMessage(v)
	return nil
}

// runAudit is `mcplens audit [CONFIG] [flags]`.
func runAudit(args []string, guard *procguard.Guard, stdout, stderr io.Writer) int {
	return runCommand("audit", &auditCommand{auditOptions: auditOptions{format: "text", failOn: "error"}, guard: guard}, args, stdio{out: stdout, err: stderr})
}

// auditCommand is `mcplens audit`: its flags and the config's path.
type auditCommand struct {
	auditOptions
	guard *procguard.Guard
	path  string
}

func (c *auditCommand) parse(fset *flag.FlagSet, args []string) error {
	o := &c.auditOptions
	fset.StringVar(&o.format, "format", o.format, "report format: "+strings.Join(report.Formats(), ", "))
	fset.StringVar(&o.failOn, "fail-on", o.failOn, "exit 1 when a finding is at or above this level: error, warning or never")
	fset.Var(&o.calls, "call", "call this tool (repeatable); no tool is called that is not named")
	fset.Var(auditArgs{&o.calls}, "args", "the JSON arguments of the --call before it (default {})")
	o.serverFlags.register(fset, c.guard, flagWords{config: "CONFIG", timeout: "bound on each probe (default 10s)", adhoc: true})
	args, o.where.command = splitCommand(args)
	pos, err := parseCommand(fset, args, "usage: mcplens audit [CONFIG] [--server LABEL] [-- CMD ARGS... | --url URL [--header N:V]...] [--client NAME[@VER]] [--protocol REV] [--format text|json|markdown|sarif|junit] [--fail-on error|warning] [--call NAME [--args JSON]]...\n\n"+
		"Audits each server of the config (or the one given) against the MCP specification: lifecycle, JSON-RPC, listings, read-only use and the HTTP transport.\n"+
		"No tool is called unless named with --call.\n"+
		"Exit status: 0 when nothing at or above --fail-on was found, 1 when something was, 2 for a usage or config error.\n\n")
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("want at most one config, got %d", len(pos))
	}
	if !report.KnownFormat(o.format) {
		return usagef("unknown format %q (want one of: %s)", o.format, strings.Join(report.Formats(), ", "))
	}
	if _, ok := audit.ParseLevel(o.failOn); !ok && o.failOn != "never" {
		return usagef("unknown --fail-on level %q (want error, warning or never)", o.failOn)
	}
	if len(pos) == 0 && !o.where.given() {
		return usagef("give a config, --url URL or -- CMD ARGS")
	}
	c.path = first(pos)
	return nil
}

// Run audits each server of the config in turn and writes the report.
func (c *auditCommand) Run(ctx context.Context, std stdio) error {
	o := &c.auditOptions
	client, hasClient, err := o.who.profile()
	if err != nil {
		return usageError(err)
	}
	if err := o.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	cfg, err := o.where.load(c.path, config.Options{Format: o.configFormat, MaxSize: o.limits.WithDefaults().Config})
	if err != nil {
		return usageError(err)
	}
	h := model.NeutralHandshake()
	if hasClient {
		h = client.Handshake
	}
	if o.who.protocol != "" {
		h.ProtocolVersion = string(o.who.protocol)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	rep := report.Audit{Config: cfg.Path, Client: o.who.name()}
	for _, spec := range cfg.Servers {
		if spec.Transport == config.TransportSSE {
			fmt.Fprintf(std.err, "mcplens audit: %s not audited: the audit speaks stdio and streamable HTTP, not the deprecated HTTP+SSE transport\n", model.Sanitize(spec.Label))
			continue
		}
		if spec.Blocked != "" || spec.Disabled {
			fmt.Fprintf(std.err, "mcplens audit: %s not audited: %s\n", model.Sanitize(spec.Label), model.Sanitize(orDisabled(spec.Blocked)))
			continue
		}
		rep.Servers = append(rep.Servers, probe.Run(ctx, spec, probe.Options{Handshake: h, Guard: c.guard, Probe: o.timeout, Calls: o.calls, Limits: o.limits, HTTPAuth: httpAuth(cfg)}))
	}
	if err := report.WriteAudit(std.out, rep, o.format); err != nil {
		return failError(err)
	}
	if ctx.Err() != nil {
		return exitWith(exitFound)
	}
	if lvl, ok := audit.ParseLevel(o.failOn); ok {
		for _, r := range rep.Servers {
			if worst, found := r.Worst(); found && worst >= lvl {
				return exitWith(exitFound)
			}
		}
	}
	return nil
}

// uiAuditor is the interface's A: the audit of one server of cfg, as the
// run's client, within the run's limits and guard.
func uiAuditor(cfg *config.Config, g *serverFlags) ui.Auditor {
	h := model.NeutralHandshake()
	if c, ok, err := g.who.profile(); ok && err == nil {
		h = c.Handshake
	}
	if g.who.protocol != "" {
		h.ProtocolVersion = string(g.who.protocol)
	}
	return func(ctx context.Context, label string) audit.Result {
		for _, spec := range cfg.Servers {
			if spec.Label == label {
				return probe.Run(ctx, spec, probe.Options{Handshake: h, Guard: g.who.guard, Limits: g.limits, HTTPAuth: httpAuth(cfg)})
			}
		}
		return audit.Result{Server: label}
	}
}

func orDisabled(blocked string) string {
	if blocked == "" {
		return "disabled in the config"
	}
	return blocked
}
