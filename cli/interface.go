package cli

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/history"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/ui"
	"github.com/mcplens/mcplens/ui/inputs"
)

// lensCommand is `mcplens [flags] [CONFIG]`: the interface, or check's
// report when stdout is not a terminal.
type lensCommand struct {
	lockPath, historyPath string
	copts                 config.Options
	// oldFormat is --format, which meant the config's format here and the
	// report's in check: one name per meaning now, the old one kept a while.
	oldFormat string
	discover  bool
	serverFlags
	guard *procguard.Guard
	hooks Hooks
	fs    *flag.FlagSet
}

func (c *lensCommand) parse(fs *flag.FlagSet, args []string) error {
	c.fs = fs
	fs.StringVar(&c.lockPath, "lock", "", "compare each server's tools with the approved definitions in this lock file")
	fs.StringVar(&c.historyPath, "history", "", "keep every call in this file (JSON Lines, mode 0600), starting from the calls already there")
	fs.StringVar(&c.oldFormat, "format", "", "deprecated: --config-format")
	fs.StringVar(&c.copts.Project, "project", "", "for ~/.claude.json: also the servers of this project path")
	c.serverFlags.register(fs, c.guard, flagWords{config: "CONFIG", adhoc: true,
		policy: "naming policy to start with: ", policyDefault: model.Policies()[0].Name})
	fs.BoolVar(&c.discover, "discover", false, "list the config files found here and in the usual places, start nothing")
	fs.Usage = func() {
		stderr := fs.Output()
		fmt.Fprintf(stderr, "usage: mcplens [--client NAME[@VERSION]] [--policy P] [--lock FILE] [--history FILE] [--config-format F] [--project P] [--timeout D] [--server LABEL] [CONFIG]\n"+
			"       mcplens [flags] -- CMD ARGS...                      (one stdio server, no config)\n"+
			"       mcplens [flags] --url URL [--header NAME:VALUE]...  (one HTTP server, no config)\n"+
			"       mcplens --discover\n"+
			"       mcplens check [CONFIG] [flags]   (mcplens check -h)\n"+
			"       mcplens audit [CONFIG | --url URL | -- CMD ARGS...] [flags]   (mcplens audit -h)\n"+
			"       mcplens call [CONFIG] NAME [--args JSON|@FILE] [--arg K=V]... [--server LABEL] [-- CMD ARGS...]   (mcplens call -h)\n"+
			"       mcplens read [CONFIG] SERVER URI   (mcplens read -h)\n"+
			"       mcplens prompt [CONFIG] SERVER NAME [--arg K=V]... [--complete ARG]   (mcplens prompt -h)\n"+
			"       mcplens diff A B [flags]   (mcplens diff -h)\n"+
			"       mcplens tap [--name LABEL] [--record FILE] -- CMD ARGS...   (mcplens tap -h)\n"+
			"       mcplens tap install|uninstall CONFIG · mcplens tap har CAPTURE.jsonl · mcplens watch [CONFIG]\n"+
			"       mcplens [check] CAPTURE.jsonl...   (a tap's recordings, offline)\n"+
			"       mcplens login CONFIG [SERVER] [--client-id ID [--client-secret S]]\n"+
			"       mcplens logout CONFIG [SERVER|--all]\n"+
			"       mcplens auth status CONFIG\n\n"+
			"With no CONFIG, mcplens opens its built-in demo. When stdout is not a terminal,\n"+
			"mcplens CONFIG prints the check report instead of opening the interface.\n\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\n%s\n", docsLine)
	}
	own, command := splitCommand(args)
	if _, err := parsed(0, fs.Parse(own)); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageShown(fs)
	}
	c.where.command = command
	return nil
}

// Run opens the interface on the config's servers, or prints check's
// report when stdout is not a terminal.
func (c *lensCommand) Run(ctx context.Context, std stdio) error {
	fs, g, copts, stderr := c.fs, &c.serverFlags, c.copts, std.err
	copts.Format = g.configFormat
	if c.oldFormat != "" {
		fmt.Fprintln(stderr, "mcplens: --format is deprecated here, where it names the config's format: use --config-format (check's --format is the report's)")
		if copts.Format == "" {
			copts.Format = c.oldFormat
		}
	}
	if err := g.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	copts.MaxSize = g.limits.WithDefaults().Config
	if c.discover {
		return runLocate(std.out, g.limits)
	}
	if _, _, err := g.who.profile(); err != nil {
		return usageError(err)
	}
	g.policy = g.who.policy(fs, g.policy)
	if _, ok := model.PolicyNamed(g.policy); !ok {
		return usagef("unknown policy %q (want one of: %s)", g.policy, policyNames())
	}

	cfg, err := g.where.load(fs.Arg(0), copts)
	if err != nil {
		return usageError(err)
	}
	g.who.adopt(cfg, fs)
	g.policy = g.who.policy(fs, g.policy)
	if !isTerminal(os.Stdout) {
		// Piped or redirected: print the check report instead of drawing,
		// and say what goes wrong as check does.
		o := defaultCheckOptions()
		o.policy, o.lock, o.timeout, o.limits, o.who = g.policy, c.lockPath, g.timeout, g.limits, g.who
		return exitWith(exit(stderr, "check", o.check(ctx, cfg, std)))
	}
	if needed := inputs.Needed(cfg); len(needed) > 0 && isTerminal(os.Stdin) {
		// VS Code asks for ${input:ID} before starting a server that uses
		// it; so does mcplens, then reads the config again with the answers.
		final, err := tea.NewProgram(ui.NewInputs(needed)).Run()
		if answers, _ := ui.Answers(final); err == nil && len(answers) > 0 {
			copts.Inputs = answers
			if cfg, err = g.where.load(fs.Arg(0), copts); err != nil {
				return usageError(err)
			}
		}
	}
	lock, err := surface.ReadLock(c.lockPath, false, false, g.limits.WithDefaults().Document)
	if err != nil {
		return usageError(err)
	}
	if _, err := history.Open(c.historyPath); err != nil { // before any server starts
		return usageError(err)
	}
	// mcp-go logs through the default slog logger; on a terminal owned by
	// the interface that would tear the screen.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(ui.MemoryLimit)
	}

	questions := ui.NewQuestions() // elicitations and sampling requests are asked on screen
	session := loader.Open(cfg, g.who.session(cfg, loader.Options{Timeout: g.timeout, Limits: g.limits, Answers: loader.Answers{Ask: questions.Ask}}))
	defer session.Close()

	m := ui.New(ui.Options{
		Title: cfg.Path, Servers: cfg.Servers, Backend: session, ConfigFindings: cfg.Findings,
		Policy: g.policy, Client: g.who.name(), ClientWhy: g.who.why(),
		Lock: lock, LockPath: c.lockPath,
		History: c.historyPath, Questions: questions, Login: uiLogin(cfg),
		Auditor: uiAuditor(cfg, g), Protocol: string(g.who.protocol),
	})
	p := tea.NewProgram(c.hooks.wrap(m))

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	ran := make(chan struct{})
	go endOnSignal(p, session, signals, ran)

	_, err = p.Run()
	close(ran)
	if err != nil {
		return failError(err)
	}
	return nil
}

// docsLine ends the interface's usage: where the reference is, as paths
// in mcplens's source tree (each page a test finds under docs/).
const docsLine = "More in mcplens's source tree: docs/commands.md (the commands and their flags), docs/interface.md (the keys), " +
	"docs/configs.md, docs/clients.md, docs/tap.md, docs/security.md (the limits), and the rest of docs/."

// quitGrace is how long the interface has to quit once a signal asked it
// to, before mcplens ends without it.
const quitGrace = 500 * time.Millisecond

// endOnSignal quits the interface on SIGTERM or SIGHUP. The interface
// quits between two frames: should one take longer than quitGrace, the
// terminal is restored, the servers are stopped and the process exits
// without waiting for that frame's end (ran is closed once the interface
// has returned).
func endOnSignal(p *tea.Program, session *loader.Session, signals <-chan os.Signal, ran <-chan struct{}) {
	select {
	case <-signals:
	case <-ran:
		return
	}
	go p.Quit() // it waits until the interface takes it, between two frames
	select {
	case <-ran:
	case <-time.After(quitGrace):
		p.Kill()
		session.Close()
		os.Exit(1)
	}
}

// demoConfig is the built-in demo's config: its servers are this binary.
func demoConfig() (*config.Config, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the mcplens binary for the demo servers: %w", err)
	}
	return demo.Config(exe), nil
}

// limitHelp lists the limits for --help.
func limitHelp() string {
	return "\n" + strings.TrimSpace(loader.LimitNames())
}

func policyNames() string {
	var names []string
	for _, p := range model.Policies() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
