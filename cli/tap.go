package cli

import (
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

// tapOptions are the flags of mcplens tap.
type tapOptions struct {
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
	if len(args) > 0 {
		switch args[0] {
		case "har":
			limitFileMemory()
			return runTapHAR(args[1:], stdout, stderr)
		case "install":
			return runTapInstall(args[1:], stdout, stderr)
		case "uninstall":
			return runTapUninstall(args[1:], stdout, stderr)
		}
	}
	opts, code, ok := parseTap(args, stderr)
	if !ok {
		return code
	}
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
	opts.guard = guard
	if opts.upstream != "" {
		return tapHTTP(opts, stderr, sigs)
	}
	return tapStdio(opts, stdin, stdout, stderr, sigs)
}

// parseTap reads tap's flags; ok is false when tap should exit with code.
func parseTap(args []string, stderr io.Writer) (opts tapOptions, code int, ok bool) {
	fs := flag.NewFlagSet("mcplens tap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.name, "name", "", "the server's label in the recording and feed (default: the command's or host's name)")
	fs.StringVar(&opts.record, "record", "", "append each frame to this JSONL file (0600, rotated at "+
		fmt.Sprint(relay.DefaultRecordCap>>20)+" MiB, "+fmt.Sprint(relay.DefaultRecordKeep)+" old files kept)")
	fs.BoolVar(&opts.feed, "feed", true, "serve the frames live on a unix socket under $XDG_RUNTIME_DIR/mcplens")
	fs.StringVar(&opts.listen, "listen", "", "with --upstream: the address to serve on, for example 127.0.0.1:8931")
	fs.StringVar(&opts.upstream, "upstream", "", "the URL of an HTTP (streamable HTTP or SSE) server to proxy")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcplens tap [--name LABEL] [--record FILE] [--feed=false] -- CMD ARGS...\n"+
			"       mcplens tap --listen ADDR --upstream URL [--name LABEL] [--record FILE] [--feed=false]\n"+
			"       mcplens tap install CONFIG [--server LABEL]... · mcplens tap uninstall CONFIG\n"+
			"       mcplens tap har CAPTURE.jsonl... > out.har\n\n"+
			"Runs a server in place of the one a client runs (or proxies an HTTP server) and passes every byte\n"+
			"both ways unchanged, copying each frame, its secrets masked, to a recording and a live feed.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return opts, 0, false
		}
		return opts, 2, false
	}
	opts.command = fs.Args()
	switch {
	case opts.upstream == "" && len(opts.command) == 0:
		fmt.Fprintln(stderr, "mcplens tap: want a command to run (after --), or --listen and --upstream")
	case opts.upstream != "" && len(opts.command) > 0:
		fmt.Fprintln(stderr, "mcplens tap: give a command or --upstream, not both")
	case opts.upstream != "" && opts.listen == "":
		fmt.Fprintln(stderr, "mcplens tap: --upstream needs --listen ADDR, for example --listen 127.0.0.1:8931")
	case opts.upstream == "" && opts.listen != "":
		fmt.Fprintln(stderr, "mcplens tap: --listen needs --upstream URL")
	default:
		if opts.name == "" {
			opts.name = defaultTapName(opts)
		}
		return opts, 0, true
	}
	return opts, 2, false
}

// defaultTapName is the label of a tap given none: the command's base
// name, or the upstream's host.
func defaultTapName(opts tapOptions) string {
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
func tapSinks(opts tapOptions, src relay.Source, stderr io.Writer) ([]relay.Sink, error) {
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

// tapStdio relays a stdio server and returns its exit status.
func tapStdio(opts tapOptions, stdin io.Reader, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	src := relay.Source{Server: opts.name, Command: opts.command}
	sinks, err := tapSinks(opts, src, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap: %v\n", err)
		return 2
	}
	env := os.Environ()
	copier := relay.NewCopier(relay.CopierOptions{Server: opts.name, Secrets: tapSecrets(opts.command, env)}, sinks...)
	s := relay.Stdio{Command: opts.command[0], Args: opts.command[1:], Env: env,
		Stdin: stdin, Stdout: stdout, Stderr: stderr, Copy: copier, Signals: sigs, Guard: opts.guard}
	code, err := s.Run()
	if cerr := copier.Close(); cerr != nil {
		fmt.Fprintf(stderr, "mcplens tap: recording: %v\n", cerr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap: starting %s: %v\n", opts.command[0], err)
		return 127
	}
	return code
}

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

// tapHTTP proxies an HTTP server until a signal stops it.
func tapHTTP(opts tapOptions, stderr io.Writer, sigs <-chan os.Signal) int {
	up, err := url.Parse(opts.upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		fmt.Fprintf(stderr, "mcplens tap: --upstream %q: want an http:// or https:// URL\n", model.RedactURL(opts.upstream))
		return 2
	}
	ln, err := net.Listen("tcp", opts.listen)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap: %v\n", err)
		return 2
	}
	src := relay.Source{Server: opts.name, Upstream: opts.upstream, Listen: ln.Addr().String()}
	sinks, err := tapSinks(opts, src, stderr)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "mcplens tap: %v\n", err)
		return 2
	}
	copier := relay.NewCopier(relay.CopierOptions{Server: opts.name, Secrets: model.URLSecrets(opts.upstream)}, sinks...)
	srv := &http.Server{
		Handler:           relay.NewProxy(up, copier, log.New(stderr, "mcplens tap: ", 0)),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stderr, "mcplens tap: listening on http://%s, relaying to %s\n", ln.Addr(), model.RedactURL(opts.upstream))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	code := 0
	select {
	case <-sigs:
	case err := <-served:
		fmt.Fprintf(stderr, "mcplens tap: %v\n", err)
		code = 1
	}
	srv.Close()
	if cerr := copier.Close(); cerr != nil {
		fmt.Fprintf(stderr, "mcplens tap: recording: %v\n", cerr)
	}
	return code
}

// runTapHAR is `mcplens tap har CAPTURE.jsonl... [--limit NAME=SIZE]`:
// the recordings as one HAR 1.2 log on stdout, written as they are read.
func runTapHAR(args []string, stdout, stderr io.Writer) int {
	var limits loader.Limits
	fset := flag.NewFlagSet("mcplens tap har", flag.ContinueOnError)
	fset.SetOutput(stderr)
	registerLimits(fset, &limits)
	paths, code, ok := parseCommand(fset, args, stderr, "usage: mcplens tap har CAPTURE.jsonl... [--limit NAME=SIZE] > out.har\n\n")
	switch {
	case !ok:
		return code
	case len(paths) == 0:
		fset.Usage()
		return exitUsage
	}
	if err := limits.FromEnv(nil); err != nil {
		fmt.Fprintf(stderr, "mcplens tap har: %v\n", err)
		return exitUsage
	}
	skipped, err := capture.WriteHAR(stdout, limits.Lines(), paths...)
	if skipped != nil {
		fmt.Fprintf(stderr, "mcplens tap har: %v\n", skipped)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap har: %v\n", err)
		return 1
	}
	return 0
}
