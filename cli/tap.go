package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/relay"
)

// tapCommand is `mcplens tap`: its flags and the command it runs.
type tapCommand struct {
	name     string
	record   string
	feed     bool
	listen   string
	upstream string
	command  []string
	// guard is the process guard of the stdio server (nil: unguarded),
	// passed in by Main.
	guard *procguard.Guard
}

// runTap is `mcplens tap`: it runs a stdio server (or proxies an HTTP one)
// in place of the server a client runs, passing every byte through as it
// came and copying each frame to a recording and a live feed. It returns
// the server's exit status (stdio) or 0 once stopped (HTTP); 2 for a usage
// error, 127 for a server that could not start.
func runTap(args []string, guard *procguard.Guard, stdin io.Reader, stdout, stderr io.Writer) int {
	std := stdio{in: stdin, out: stdout, err: stderr}
	if len(args) > 0 {
		switch args[0] {
		case "har":
			limitFileMemory()
			return runCommand("tap har", &tapHARCommand{}, args[1:], std)
		case "install":
			return runCommand("tap install", &tapInstallCommand{}, args[1:], std)
		case "uninstall":
			return runCommand("tap uninstall", &tapUninstallCommand{}, args[1:], std)
		}
	}
	return runCommand("tap", &tapCommand{guard: guard}, args, std)
}

// Run relays until the server exits (stdio) or a signal stops it (HTTP).
func (opts *tapCommand) Run(_ context.Context, std stdio) error {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	// A client that closes its end must see its writes fail, not kill the
	// relay: with SIGPIPE caught, a write to it returns EPIPE.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	// The tap is a process of its own, in the client's tree: keep it small.
	debug.SetMemoryLimit(relay.MemoryLimit)
	if opts.upstream != "" {
		return opts.http(std.err, sigs)
	}
	return opts.stdio(std, sigs)
}

// parseTap reads tap's flags; ok is false when tap should exit with code.
func parseTap(args []string, stderr io.Writer) (opts tapCommand, code int, ok bool) {
	fs := flag.NewFlagSet(flagSetName("tap"), flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := opts.parse(fs, args); err != nil {
		return opts, exit(stderr, "tap", err), false
	}
	return opts, 0, true
}

func (opts *tapCommand) parse(fs *flag.FlagSet, args []string) error {
	fs.StringVar(&opts.name, "name", "", "the server's label in the recording and feed (default: the command's or host's name)")
	fs.StringVar(&opts.record, "record", "", "append each frame to this JSONL file (0600, rotated at "+
		fmt.Sprint(relay.DefaultRecordCap>>20)+" MiB, "+fmt.Sprint(relay.DefaultRecordKeep)+" old files kept)")
	fs.BoolVar(&opts.feed, "feed", true, "serve the frames live on a unix socket under $XDG_RUNTIME_DIR/mcplens")
	fs.StringVar(&opts.listen, "listen", "", "with --upstream: the address to serve on, for example 127.0.0.1:8931")
	fs.StringVar(&opts.upstream, "upstream", "", "the URL of an HTTP (streamable HTTP or SSE) server to proxy")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcplens tap [--name LABEL] [--record FILE] [--feed=false] -- CMD ARGS...\n"+
			"       mcplens tap --listen ADDR --upstream URL [--name LABEL] [--record FILE] [--feed=false]\n"+
			"       mcplens tap install CONFIG [--server LABEL]... · mcplens tap uninstall CONFIG\n"+
			"       mcplens tap har CAPTURE.jsonl... > out.har\n\n"+
			"Runs a server in place of the one a client runs (or proxies an HTTP server) and passes every byte\n"+
			"both ways unchanged, copying each frame, its secrets masked, to a recording and a live feed.\n\n")
		fs.PrintDefaults()
	}
	if _, err := parsed(0, fs.Parse(args)); err != nil {
		return err
	}
	opts.command = fs.Args()
	switch {
	case opts.upstream == "" && len(opts.command) == 0:
		return usageError(errors.New("want a command to run (after --), or --listen and --upstream"))
	case opts.upstream != "" && len(opts.command) > 0:
		return usageError(errors.New("give a command or --upstream, not both"))
	case opts.upstream != "" && opts.listen == "":
		return usageError(errors.New("--upstream needs --listen ADDR, for example --listen 127.0.0.1:8931"))
	case opts.upstream == "" && opts.listen != "":
		return usageError(errors.New("--listen needs --upstream URL"))
	}
	if opts.name == "" {
		opts.name = defaultTapName(*opts)
	}
	return nil
}

// defaultTapName is the label of a tap given none: the command's base
// name, or the upstream's host.
func defaultTapName(opts tapCommand) string {
	if len(opts.command) > 0 {
		return filepath.Base(opts.command[0])
	}
	if u, err := url.Parse(opts.upstream); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "tap"
}

// tapSinks opens the recording and the feed a tap copies to. A feed that
// cannot start is reported and left out; a recording that cannot is an
// error.
func tapSinks(opts tapCommand, src relay.Source, stderr io.Writer) ([]relay.Sink, error) {
	header := relay.HeaderLine(src, time.Now())
	var sinks []relay.Sink
	if opts.record != "" {
		rec, err := relay.Record(opts.record, header, relay.RecordOptions{})
		if err != nil {
			return nil, err
		}
		sinks = append(sinks, rec)
	}
	if opts.feed {
		dir, err := relay.FeedDir()
		var feed *relay.Feed
		if err == nil {
			feed, err = relay.Serve(relay.FeedPath(dir, opts.name), header)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcplens tap: no live feed: %v\n", err)
		} else {
			sinks = append(sinks, feed)
		}
	}
	return sinks, nil
}

// stdio relays a stdio server and ends with its exit status.
func (opts *tapCommand) stdio(std stdio, sigs <-chan os.Signal) error {
	src := relay.Source{Server: opts.name, Command: opts.command}
	sinks, err := tapSinks(*opts, src, std.err)
	if err != nil {
		return usageError(err)
	}
	env := os.Environ()
	copier := relay.NewCopier(relay.CopierOptions{Server: opts.name, Secrets: tapSecrets(opts.command, env)}, sinks...)
	s := relay.Stdio{Command: opts.command[0], Args: opts.command[1:], Env: env,
		Stdin: std.in, Stdout: std.out, Stderr: std.err, Copy: copier, Signals: sigs, Guard: opts.guard}
	code, err := s.Run()
	if cerr := copier.Close(); cerr != nil {
		fmt.Fprintf(std.err, "mcplens tap: recording: %v\n", cerr)
	}
	if err != nil {
		return &exitError{code: exitNotStarted, err: fmt.Errorf("starting %s: %w", opts.command[0], err)}
	}
	if code == exitOK {
		return nil
	}
	return exitWith(code)
}

// exitNotStarted is tap's exit code for a server that could not start, as
// a shell's for a command not found.
const exitNotStarted = 127

// tapSecrets are the values a stdio tap masks in every frame besides the
// shapes of secrets: those of the command line (model.ArgSecrets), and
// the environment's values that are named or shaped as secrets
// (model.SecretEnv), with the secrets of those that are URLs.
func tapSecrets(command, env []string) []string {
	secrets := model.ArgSecrets(command)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if model.SecretEnv(k, v) {
			secrets = append(secrets, v)
			secrets = append(secrets, model.URLSecrets(v)...)
		}
	}
	return secrets
}

// tapHTTP proxies an HTTP server until a signal stops it; it returns the
// exit code.
func tapHTTP(opts tapCommand, stderr io.Writer, sigs <-chan os.Signal) int {
	return exit(stderr, "tap", opts.http(stderr, sigs))
}

// http proxies an HTTP server until a signal stops it.
func (opts *tapCommand) http(stderr io.Writer, sigs <-chan os.Signal) error {
	up, err := url.Parse(opts.upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return usagef("--upstream %q: want an http:// or https:// URL", model.RedactURL(opts.upstream))
	}
	ln, err := net.Listen("tcp", opts.listen)
	if err != nil {
		return usageError(err)
	}
	src := relay.Source{Server: opts.name, Upstream: opts.upstream, Listen: ln.Addr().String()}
	sinks, err := tapSinks(*opts, src, stderr)
	if err != nil {
		ln.Close()
		return usageError(err)
	}
	copier := relay.NewCopier(relay.CopierOptions{Server: opts.name, Secrets: model.URLSecrets(opts.upstream)}, sinks...)
	srv := &http.Server{
		Handler:           relay.NewProxy(up, copier, log.New(stderr, "mcplens tap: ", 0)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stderr, "mcplens tap: listening on http://%s, relaying to %s\n", ln.Addr(), model.RedactURL(opts.upstream))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var end error
	select {
	case <-sigs:
	case err := <-served:
		end = failError(err)
	}
	srv.Close()
	if cerr := copier.Close(); cerr != nil {
		end = sayAfter(end, fmt.Sprintf("mcplens tap: recording: %v\n", cerr))
	}
	return end
}

// tapHARCommand is `mcplens tap har CAPTURE.jsonl... [--limit NAME=SIZE]`:
// the recordings as one HAR 1.2 log on stdout, written as they are read.
type tapHARCommand struct {
	limits loader.Limits
	paths  []string
}

func (c *tapHARCommand) parse(fset *flag.FlagSet, args []string) (err error) {
	registerLimits(fset, &c.limits)
	if c.paths, err = parseCommand(fset, args, "usage: mcplens tap har CAPTURE.jsonl... [--limit NAME=SIZE] > out.har\n\n"); err != nil {
		return err
	}
	if len(c.paths) == 0 {
		return usageShown(fset)
	}
	if err := c.limits.FromEnv(nil); err != nil {
		return usageError(err)
	}
	return nil
}

// Run writes the HAR log.
func (c *tapHARCommand) Run(_ context.Context, std stdio) error {
	skipped, err := capture.WriteHAR(std.out, c.limits.Lines(), c.paths...)
	if skipped != nil {
		fmt.Fprintf(std.err, "mcplens tap har: %v\n", skipped)
	}
	if err != nil {
		return failError(err)
	}
	return nil
}
