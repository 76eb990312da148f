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

	"github.com/charmbracelet/x/term"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
)

// checkOptions are check's flags; mcplens PATH without a terminal runs check
// with the defaults and its own --policy and --lock.
type checkOptions struct {
	login bool // log in first to the remote servers with no token (a browser opens)
	// metaURL is --client-metadata-url: the client ID metadata document of a login
	metaURL    string
	providers  string
	format     string
	failOn     string
	lock       string
	updateLock bool
	// force lets --update-lock replace a lock path that is a symbolic link
	// or a file that is not an mcplens lock.
	force bool
	// serverFlags: the servers, the client (who), the policy, the limits
	// and the connect timeout.
	serverFlags
	// clients is --clients: the clients to compare (parseClients), ""
	// for who alone.
	clients string
	// snapshot is --snapshot: the file the whole surface is written to.
	snapshot string
}

func defaultCheckOptions() checkOptions {
	return checkOptions{
		serverFlags: serverFlags{policy: model.Policies()[0].Name},
		providers:   profileList(model.DefaultProfiles()),
		format:      "text",
		failOn:      "error",
	}
}

// failOnLevels are the values of --fail-on, with the lowest severity that
// fails a run; "never" has none.
var failOnLevels = map[string]report.Severity{"error": report.Error, "warning": report.Warning}

// runCheck is `mcplens check [PATH] [flags]`.
func runCheck(args []string, guard *procguard.Guard, stdout, stderr io.Writer) int {
	return runCommand("check", &checkCommand{guard: guard}, args, stdio{out: stdout, err: stderr})
}

// checkCommand is `mcplens check`: its options and its config's path.
type checkCommand struct {
	checkOptions
	guard *procguard.Guard
	fs    *flag.FlagSet
	path  string
}

func (c *checkCommand) parse(fset *flag.FlagSet, args []string) error {
	c.checkOptions, c.fs = defaultCheckOptions(), fset
	o := &c.checkOptions
	fset.StringVar(&o.providers, "providers", o.providers, "provider profiles to check names against, comma-separated, or all: "+profileList(model.Profiles()))
	fset.StringVar(&o.format, "format", o.format, "report format: "+strings.Join(report.Formats(), ", "))
	fset.StringVar(&o.failOn, "fail-on", o.failOn, "exit 1 when a finding is at or above this level: error, warning or never")
	fset.StringVar(&o.lock, "lock", "", "compare each server's tools with the approved definitions in this lock file")
	fset.BoolVar(&o.updateLock, "update-lock", false, "write what the servers advertise now to the --lock file")
	fset.BoolVar(&o.force, "force", false, "with --update-lock: replace a --lock path that is a symbolic link (the link, never its target) or a file that is not an mcplens lock")
	fset.BoolVar(&o.login, "login", false, "log in to each remote server that asks for it, first or when it refuses a request (opens a browser); without it a server needing login is a needs-login warning")
	fset.StringVar(&o.metaURL, "client-metadata-url", "", "with --login: the HTTPS URL of a client ID metadata document for mcplens")
	o.serverFlags.register(fset, c.guard, flagWords{config: "PATH", policy: "naming policy: ", policyDefault: o.policy, adhoc: true})
	fset.StringVar(&o.snapshot, "snapshot", "", "also write the whole surface (servers, definitions, every policy's registry, verdicts, findings) to this file as canonical JSON, for mcplens diff")
	fset.StringVar(&o.clients, "clients", "", "connect as each of these clients (NAME[@VERSION],... or all), once per distinct handshake, and report the tools "+
		"some are advertised and others not; the rest of the report is the first one's")
	args, o.where.command = splitCommand(args)
	pos, err := parseCommand(fset, args, "usage: mcplens check [PATH | --url URL | -- CMD ARGS...] [--client NAME[@VERSION] | --clients LIST|all] [--policy P] [--providers LIST] [--format text|json|markdown|sarif|junit] [--fail-on LEVEL] [--lock FILE [--update-lock [--force]]] [--snapshot FILE]\n\n"+
		"Connects to every server of the config (the demo without PATH), applies the policy and prints the report.\n"+
		"Exit status: 0 when nothing at or above --fail-on was found, 1 when something was, 2 for a usage, config or lock file error.\n\n")
	if err != nil {
		return err
	}
	if err := o.firstClient(); err != nil {
		return usageError(err)
	}
	if err := checkMetadataURL(o.metaURL); err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("want at most one config, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	if err := o.validate(); err != nil {
		return usageError(err)
	}
	if err := o.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	c.path = first(pos)
	return nil
}

// Run loads the config and checks it.
func (c *checkCommand) Run(ctx context.Context, std stdio) error {
	o := &c.checkOptions
	cfg, err := o.where.load(c.path, config.Options{Format: o.configFormat, MaxSize: o.limits.WithDefaults().Config})
	if err != nil {
		return usageError(err)
	}
	o.who.adopt(cfg, c.fs)
	o.policy = o.who.policy(c.fs, o.policy)
	return o.check(ctx, cfg, std)
}

// firstClient makes the first client of --clients the one the report is
// for; --clients and --client exclude each other.
func (o *checkOptions) firstClient() error {
	if o.clients == "" {
		return nil
	}
	if o.who.client != "" {
		return errors.New("--client and --clients exclude each other: the report is for the first of --clients")
	}
	keys, err := parseClients(o.clients)
	if err != nil {
		return err
	}
	o.who.client = keys[0]
	return nil
}

// validate checks the flags that do not need the config.
func (o checkOptions) validate() error {
	if _, _, err := o.who.profile(); err != nil {
		return err
	}
	if o.clients != "" {
		if _, err := parseClients(o.clients); err != nil {
			return err
		}
	}
	if _, ok := model.PolicyNamed(o.policy); !ok {
		return fmt.Errorf("unknown policy %q (want one of: %s)", o.policy, policyNames())
	}
	if _, err := parseProfiles(o.providers); err != nil {
		return err
	}
	if !report.KnownFormat(o.format) {
		return fmt.Errorf("unknown format %q (want one of: %s)", o.format, strings.Join(report.Formats(), ", "))
	}
	if _, ok := failOnLevels[o.failOn]; !ok && o.failOn != "never" {
		return fmt.Errorf("unknown --fail-on level %q (want error, warning or never)", o.failOn)
	}
	if o.updateLock && o.lock == "" {
		return errors.New("--update-lock needs --lock FILE")
	}
	if o.force && !o.updateLock {
		return errors.New("--force needs --update-lock")
	}
	return nil
}

// check connects to every server of cfg, waits until each is ready or
// failed, and prints the report on std.out; its error carries the exit
// code (a finding at or above --fail-on: failError, said already).
func (o checkOptions) check(ctx context.Context, cfg *config.Config, std stdio) (err error) {
	stderr := std.err
	if err := o.validate(); err != nil {
		return usageError(err)
	}
	lock, err := surface.ReadLock(o.lock, o.updateLock, o.force, o.limits.WithDefaults().Document)
	if err != nil {
		return usageError(err)
	}
	if lock != nil && lock.Outdated() {
		fmt.Fprintf(stderr, "mcplens check: %s\n", model.Sanitize(surface.OutdatedLock(o.lock, lock, o.updateLock)))
	}

	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	lopts := loader.Options{Timeout: o.timeout, Limits: o.limits}
	if o.login {
		lopts.HTTPAuth = loginFirst(sigCtx, cfg, o.metaURL, stderr)
	}
	conns := o.connections()
	var handshakes []model.Handshake
	for _, c := range conns {
		handshakes = append(handshakes, c.handshake)
	}
	snaps, settled, closeAll, settleErr := settle.Each(sigCtx, cfg, o.who.session(cfg, lopts), handshakes, o.timeout)
	defer func() {
		// The report is out: the servers are shut down before the exit.
		if cerr := closeAll(); cerr != nil {
			err = sayAfter(err, fmt.Sprintf("mcplens check: %v\n", cerr))
		}
	}()
	snap := snaps[0]
	if settleErr != nil {
		fmt.Fprintf(stderr, "mcplens check: %v\n", settleErr)
	}
	if errors.Is(settleErr, settle.ErrInterrupted) {
		return exitWith(exitFound)
	}
	if o.snapshot != "" {
		if err := writeSnapshot(o.snapshot, cfg, snap, o); err != nil {
			return failError(err)
		}
	}
	r := checkReport(cfg, snap, o, lock, gated(conns, snaps))
	if err := report.Write(std.out, r, o.format); err != nil {
		return failError(err)
	}
	if o.updateLock {
		for _, why := range surface.KeptPins(lock, snap) {
			fmt.Fprintf(stderr, "mcplens check: %s\n", model.Sanitize(why))
		}
		if err := surface.WriteLock(o.lock, surface.UpdatedLock(lock, snap), o.force); err != nil {
			return failError(err)
		}
	}
	if !settled {
		return exitWith(exitFound) // a server never settled: nothing can be said of it
	}
	if lvl, ok := failOnLevels[o.failOn]; ok {
		if worst, found := r.Worst(); found && worst >= lvl {
			return exitWith(exitFound)
		}
	}
	return nil
}

// checkReport is check's report on snap, the servers of cfg as they
// settled, under o's policy and providers and compared with lock (nil for
// none). o is valid.
func checkReport(cfg *config.Config, snap *surface.Snapshot, o checkOptions, lock *model.Lock, gated []surface.GatedTool) *report.Report {
	policy, _ := model.PolicyNamed(o.policy)
	profiles, _ := parseProfiles(o.providers)
	r := report.Build(cfg.Path, surface.Assess(snap, surface.Options{
		Policy:      policy,
		Profiles:    profiles,
		Lock:        lock,
		LockPath:    o.lock,
		LockUpdated: o.updateLock,
		Gated:       gated,
		Fixed:       true, // settled: the report reads it as it is
	}))
	r.Client, r.ClientSource = o.who.name(), o.who.why()
	for _, c := range o.connections() {
		r.Clients = append(r.Clients, strings.Join(c.clients, ", "))
	}
	return r
}

// connections are the handshakes check connects with: one per distinct
// handshake of --clients, none without it (o.who's alone).
func (o checkOptions) connections() []connection {
	if o.clients == "" {
		return nil
	}
	keys, _ := parseClients(o.clients)
	return connections(keys)
}

// gated compares the snapshots settled for conns (settleEach, in order).
func gated(conns []connection, snaps []*surface.Snapshot) []surface.GatedTool {
	if len(conns) < 2 {
		return nil
	}
	sightings := make([]surface.Sighting, len(conns))
	for i, c := range conns {
		sightings[i] = surface.Sighting{Clients: c.clients, Snap: snaps[i]}
	}
	return surface.Gated(sightings)
}

// parseProfiles reads --providers: names separated by commas, or "all".
func parseProfiles(list string) ([]model.Profile, error) {
	if strings.TrimSpace(list) == "all" {
		return model.Profiles(), nil
	}
	var out []model.Profile
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		p, ok := model.ProfileNamed(name)
		if !ok {
			return nil, fmt.Errorf("unknown provider %q (want some of: %s, or all)", name, profileList(model.Profiles()))
		}
		out = append(out, p)
	}
	return out, nil
}

func profileList(ps []model.Profile) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return strings.Join(names, ",")
}

// isTerminal reports whether f is a terminal: a character device such as
// /dev/null is not one.
func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }
