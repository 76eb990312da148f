package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
	"github.com/mcplens/mcplens/surfacediff"
)

// diffOptions are diff's flags.
type diffOptions struct {
	// serverFlags: the client (who), the policy, the limits and the
	// connect timeout of config sides.
	serverFlags
	providers string
	format    string
	failOn    string
	git       string
	clients   string
	// policies are those compared: a side's document is made under them
	// only.
	policies []string
}

const diffUsage = "usage: mcplens diff A B [--client NAME[@VERSION] | --clients LIST|all] [--policy P] [--format text|markdown|json|sarif|junit] [--fail-on CLASSES]\n" +
	"       mcplens diff --git REF[:PATH] [B] [flags]\n\n" +
	"Compares two tool surfaces. Each side is a config (its servers are started and listed, as check does),\n" +
	"a snapshot (check --snapshot), a lock file (definitions only) or a tap's recording (what the client was shown). --git REF:PATH takes A from git\n" +
	"(git show REF:PATH) and B from PATH in the working tree unless B is given; --git REF with one PATH\n" +
	"compares PATH at REF with PATH now.\n" +
	"Exit status: 0 when no change of a --fail-on class was found, 1 when one was, 2 for a usage or file error.\n\n"

// runDiff is `mcplens diff A B [flags]`.
func runDiff(args []string, guard *procguard.Guard, stdout, stderr io.Writer) int {
	return runCommand("diff", &diffCommand{guard: guard}, args, stdio{out: stdout, err: stderr})
}

// diffCommand is `mcplens diff`: its options and its sides as given.
type diffCommand struct {
	diffOptions
	guard *procguard.Guard
	fs    *flag.FlagSet
	pos   []string
}

func (c *diffCommand) parse(fset *flag.FlagSet, args []string) (err error) {
	c.diffOptions, c.fs = diffOptions{providers: profileList(model.DefaultProfiles()), format: "text", failOn: "default"}, fset
	o := &c.diffOptions
	fset.StringVar(&o.providers, "providers", o.providers, "provider profiles whose verdicts are compared, comma-separated, or all")
	fset.StringVar(&o.format, "format", o.format, "output format: "+strings.Join(report.DiffFormats(), ", "))
	fset.StringVar(&o.failOn, "fail-on", o.failOn, "exit 1 when a change of one of these classes is found, comma-separated; default ("+
		classNames(surfacediff.DefaultFailOn())+"), all, none, or some of: "+classNames(surfacediff.Classes()))
	fset.StringVar(&o.git, "git", "", "take side A from git: REF:PATH, or REF with PATH the one positional argument")
	fset.StringVar(&o.clients, "clients", "", "compare as each of these clients (NAME[@VERSION],... or all), each under its own policy")
	o.serverFlags.register(fset, c.guard, flagWords{config: "config sides",
		policy: "the registry compared: this naming policy's (default: the client's, else " + model.Policies()[0].Name + "): "})
	c.pos, err = parseCommand(fset, args, diffUsage)
	return err
}

// Run compares the two sides and prints the diff.
func (c *diffCommand) Run(ctx context.Context, std stdio) (err error) {
	o, fset, stderr := &c.diffOptions, c.fs, std.err
	failOn, err := o.validate()
	if err != nil {
		return usageError(err)
	}
	if err := o.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	sides, cleanup, err := o.sides(sigCtx, c.pos)
	defer cleanup()
	if err != nil {
		return usageError(err)
	}
	for _, s := range sides {
		if s.skipped != nil {
			fmt.Fprintf(stderr, "mcplens diff: %v\n", s.skipped)
		}
	}
	o.adopt(fset, sides)
	keys, conns := o.compared()
	for _, k := range keys {
		o.policies = append(o.policies, o.policyFor(fset, k))
	}
	if len(conns) > 0 && (sides[0].cfg == nil || sides[1].cfg == nil) {
		return usageError(errors.New("--clients compares configs: both sides must be configs (or --git), not snapshots or locks"))
	}
	docs := make([][]*surfacediff.Document, 2)
	errs := make([]error, 2)
	settledEach := make([]bool, 2)
	closers := make([]func() error, 2)
	var wg sync.WaitGroup
	for i := range sides {
		wg.Go(func() { docs[i], settledEach[i], closers[i], errs[i] = sides[i].documents(sigCtx, *o, conns) })
	}
	wg.Wait()
	defer func() {
		// The diff is out: the servers of both sides are shut down before the exit.
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, closeAll := range closers {
			wg.Go(func() {
				if cerr := closeAll(); cerr != nil {
					mu.Lock()
					err = sayAfter(err, fmt.Sprintf("mcplens diff: %v\n", cerr))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}()
	for _, err := range errs {
		if err != nil {
			fmt.Fprintf(stderr, "mcplens diff: %v\n", err)
		}
		if errors.Is(err, settle.ErrInterrupted) {
			return exitWith(exitFound)
		}
	}
	settled := settledEach[0] && settledEach[1]
	var diffs []*surfacediff.Diff
	for _, k := range keys {
		i := connectionOf(conns, k)
		d := surfacediff.Compare(docs[0][min(i, len(docs[0])-1)], docs[1][min(i, len(docs[1])-1)], o.policyFor(fset, k))
		d.A, d.B = sides[0].name, sides[1].name
		if len(conns) > 0 {
			d.Client = k
		}
		diffs = append(diffs, d)
	}
	if err := report.WriteDiff(std.out, diffs, o.format, failOn); err != nil {
		return failError(err)
	}
	if !settled {
		return exitWith(exitFound)
	}
	for _, d := range diffs {
		if d.Fails(failOn) {
			return exitWith(exitFound)
		}
	}
	return nil
}

// validate checks the flags, returning the --fail-on classes.
func (o *diffOptions) validate() ([]surfacediff.Class, error) {
	if o.clients != "" && o.who.client != "" {
		return nil, errors.New("--client and --clients exclude each other")
	}
	if o.clients != "" {
		if _, err := parseClients(o.clients); err != nil {
			return nil, err
		}
	}
	if _, _, err := o.who.profile(); err != nil {
		return nil, err
	}
	if _, ok := model.PolicyNamed(o.policy); o.policy != "" && !ok {
		return nil, fmt.Errorf("unknown policy %q (want one of: %s)", o.policy, policyNames())
	}
	if _, err := parseProfiles(o.providers); err != nil {
		return nil, err
	}
	if !slices.Contains(report.DiffFormats(), o.format) && o.format != "md" {
		return nil, fmt.Errorf("unknown format %q (want one of: %s)", o.format, strings.Join(report.DiffFormats(), ", "))
	}
	return surfacediff.ParseFailOn(o.failOn)
}

// sides reads the two sides named by pos and --git. cleanup removes what
// reading them left behind (git's copies); it is never nil.
func (o diffOptions) sides(ctx context.Context, pos []string) (sides []side, cleanup func(), err error) {
	var dirs []string
	cleanup = func() {
		for _, d := range dirs {
			os.RemoveAll(d)
		}
	}
	max := o.limits.WithDefaults().Config
	names, paths := pos, pos
	if o.git != "" {
		ref, path, err := splitGit(o.git)
		switch {
		case err != nil:
			return nil, cleanup, err
		case path == "" && len(pos) != 1:
			return nil, cleanup, fmt.Errorf("--git %s wants one PATH: the config compared with itself at %s", ref, ref)
		case path != "" && len(pos) > 1:
			return nil, cleanup, fmt.Errorf("--git %s wants at most one more side, got %d", o.git, len(pos))
		case path == "":
			path = pos[0]
		}
		b := path
		if len(pos) == 1 {
			b = pos[0]
		}
		copyPath, dir, err := gitFile(ctx, ref, path, max)
		switch {
		case errors.Is(err, errAbsent):
			// A config the change adds: every server of B is new.
			b, err := loadSide(b, b, o, max)
			profiles, _ := parseProfiles(o.providers)
			empty := side{name: ref + ":" + path, doc: surfacediff.Capture(ref+":"+path+" (absent)", "", surface.New(nil, nil), profiles)}
			return []side{empty, b}, cleanup, err
		case err != nil:
			return nil, cleanup, err
		}
		dirs = append(dirs, dir)
		names, paths = []string{ref + ":" + path, b}, []string{copyPath, b}
	} else if len(pos) != 2 {
		return nil, cleanup, fmt.Errorf("want two sides, A and B, got %d (or --git REF[:PATH])", len(pos))
	}
	for i := range 2 {
		s, err := loadSide(names[i], paths[i], o, max)
		if err != nil {
			return nil, cleanup, err
		}
		if s.cfg != nil {
			s.cfg.Path = names[i]
		}
		sides = append(sides, s)
	}
	return sides, cleanup, nil
}

// adopt connects as the client whose format a config side is in (B's
// first), as check does, or else as the client a snapshot side was taken
// as, unless --client, --clients or --policy is given.
func (o *diffOptions) adopt(fs *flag.FlagSet, sides []side) {
	if o.clients != "" || o.who.client != "" || flagSet(fs, "policy") {
		return
	}
	for _, s := range []side{sides[1], sides[0]} {
		switch {
		case s.cfg != nil:
			o.who.adopt(s.cfg, fs)
			return
		case s.doc != nil && s.doc.Client != "":
			o.who.client = s.doc.Client
			return
		case s.client != "": // a recording's
			o.who.client = s.client
			return
		}
	}
}

// compared returns the clients compared, in order ("" for o.who alone),
// and the connections --clients makes (none without it).
func (o diffOptions) compared() ([]string, []connection) {
	if o.clients == "" {
		return []string{""}, nil
	}
	keys, _ := parseClients(o.clients)
	return keys, connections(keys)
}

// connectionOf is the index of the connection client key k connects with
// (0 without --clients).
func connectionOf(conns []connection, k string) int {
	h := model.NeutralHandshake()
	if !isNeutral(k) && k != "" {
		c, _ := model.ClientNamed(k)
		h = c.Handshake
	}
	return max(0, slices.IndexFunc(conns, func(c connection) bool { return reflect.DeepEqual(c.handshake, h) }))
}

// policyFor is the policy compared for client key k: --policy, else the
// client's (o.who's for ""), else the first policy.
func (o diffOptions) policyFor(fs *flag.FlagSet, k string) string {
	if o.policy != "" {
		return o.policy
	}
	who := o.who
	if k != "" {
		who.client = k
	}
	return who.policy(fs, model.Policies()[0].Name)
}

func classNames(cs []surfacediff.Class) string {
	var names []string
	for _, c := range cs {
		names = append(names, string(c))
	}
	return strings.Join(names, ",")
}
