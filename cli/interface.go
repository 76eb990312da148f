package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
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
)

// Main runs mcplens's command line on args (without the program's name)
// and returns the exit code. guard kills the process groups of the stdio
// servers should mcplens die without stopping them (SIGKILL, the OOM
// killer): one guard per run, shared by every session, started with the
// first server (nil: unguarded, as in tests that run commands in-process).
// hooks, when not nil, wraps the interface's model (test builds only).
func Main(args []string, guard *procguard.Guard, hooks Hooks) int {
	return run(args, guard, hooks, os.Stderr)
}

// Hooks wraps the interface's model before it runs: test builds of
// mcplens only (-tags mcplens_panictest); nil wraps nothing.
type Hooks func(tea.Model) tea.Model

func (h Hooks) wrap(m tea.Model) tea.Model {
	if h == nil {
		return m
	}
	return h(m)
}

// run is mcplens's command line; it returns the exit code. guard and
// hooks are Main's.
func run(args []string, guard *procguard.Guard, hooks Hooks, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			if isCapture(args[1:]) {
				limitFileMemory()
				return runOffline(args[1:], false, hooks, os.Stdout, stderr)
			}
			return runCheck(args[1:], guard, os.Stdout, stderr)
		case "call":
			return runCall(args[1:], guard, os.Stdin, os.Stdout, stderr)
		case "tap":
			return runTap(args[1:], guard, os.Stdin, os.Stdout, stderr)
		case "read":
			return runRead(args[1:], guard, os.Stdout, stderr)
		case "prompt":
			return runPrompt(args[1:], guard, os.Stdout, stderr)
		case "diff":
			limitFileMemory()
			return runDiff(args[1:], guard, os.Stdout, stderr)
		case "login":
			return runLogin(args[1:], os.Stdout, stderr)
		case "logout":
			return runLogout(args[1:], os.Stdout, stderr)
		case "auth":
			return runAuth(args[1:], os.Stdout, stderr)
		case "watch":
			return runWatch(args[1:], hooks, os.Stdout, stderr)
		}
		if isCapture(args) {
			return runOffline(args, true, hooks, os.Stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("mcplens", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lockPath := fs.String("lock", "", "compare each server's tools with the approved definitions in this lock file")
	historyPath := fs.String("history", "", "keep every call in this file (JSON Lines, mode 0600), starting from the calls already there")
	var copts config.Options
	// --format meant the config's format here and the report's in check:
	// one name per meaning now, the old one kept a while.
	oldFormat := fs.String("format", "", "deprecated: --config-format")
	fs.StringVar(&copts.Project, "project", "", "for ~/.claude.json: also the servers of this project path")
	var g serverFlags
	g.register(fs, guard, flagWords{config: "CONFIG", adhoc: true,
		policy: "naming policy to start with: ", policyDefault: model.Policies()[0].Name})
	discover := fs.Bool("discover", false, "list the config files found here and in the usual places, start nothing")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcplens [--client NAME[@VERSION]] [--policy P] [--lock FILE] [--history FILE] [--config-format F] [--project P] [--timeout D] [--server LABEL] [CONFIG]\n"+
			"       mcplens [flags] -- CMD ARGS...                      (one stdio server, no config)\n"+
			"       mcplens [flags] --url URL [--header NAME:VALUE]...  (one HTTP server, no config)\n"+
			"       mcplens --discover\n"+
			"       mcplens check [CONFIG] [flags]   (mcplens check -h)\n"+
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
	if err := fs.Parse(own); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	g.where.command = command
	copts.Format = g.configFormat
	if *oldFormat != "" {
		fmt.Fprintln(stderr, "mcplens: --format is deprecated here, where it names the config's format: use --config-format (check's --format is the report's)")
		if copts.Format == "" {
			copts.Format = *oldFormat
		}
	}
	if err := g.limits.FromEnv(nil); err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
	}
	copts.MaxSize = g.limits.WithDefaults().Config
	if *discover {
		return runLocate(os.Stdout, stderr, g.limits)
	}
	if _, _, err := g.who.profile(); err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
	}
	g.policy = g.who.policy(fs, g.policy)
	if _, ok := model.PolicyNamed(g.policy); !ok {
		fmt.Fprintf(stderr, "mcplens: unknown policy %q (want one of: %s)\n", g.policy, policyNames())
		return 2
	}

	cfg, err := g.where.load(fs.Arg(0), copts)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
	}
	g.who.adopt(cfg, fs)
	g.policy = g.who.policy(fs, g.policy)
	if !isTerminal(os.Stdout) {
		// Piped or redirected: print the check report instead of drawing.
		o := defaultCheckOptions()
		o.policy, o.lock, o.timeout, o.limits, o.who = g.policy, *lockPath, g.timeout, g.limits, g.who
		return check(cfg, o, os.Stdout, stderr)
	}
	if needed := ui.NeededInputs(cfg); len(needed) > 0 && isTerminal(os.Stdin) {
		// VS Code asks for ${input:ID} before starting a server that uses
		// it; so does mcplens, then reads the config again with the answers.
		final, err := tea.NewProgram(ui.NewInputs(needed)).Run()
		if answers, _ := ui.Answers(final); err == nil && len(answers) > 0 {
			copts.Inputs = answers
			if cfg, err = g.where.load(fs.Arg(0), copts); err != nil {
				fmt.Fprintf(stderr, "mcplens: %v\n", err)
				return 2
			}
		}
	}
	lock, err := surface.ReadLock(*lockPath, false, false, g.limits.WithDefaults().Document)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
	}
	if _, err := history.Open(*historyPath); err != nil { // before any server starts
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
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

	m := ui.New(cfg.Path, cfg.Servers, session)
	m.SetQuestions(questions)
	if err := m.SetHistory(*historyPath); err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
	}
	m.SetLogin(uiLogin(cfg))
	m.SetConfigFindings(cfg.Findings)
	m.SetPolicy(g.policy)
	m.SetClient(g.who.name(), g.who.why())
	m.SetProtocol(string(g.who.protocol))
	if lock != nil {
		m.SetLock(*lockPath, lock)
	}
	p := tea.NewProgram(hooks.wrap(m))

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	ran := make(chan struct{})
	go endOnSignal(p, session, signals, ran)

	_, err = p.Run()
	close(ran)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 1
	}
	return 0
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
