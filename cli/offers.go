package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface/settle"
)

// `mcplens read` and `mcplens prompt`: one request of a server's offers,
// headless, through the Session methods the interface uses. Only the
// server named is started; the frames are printed as they crossed the
// wire, then what the server answered, masked and sanitized as call's.

// runRead is `mcplens read [PATH] SERVER URI`.
func runRead(args []string, guard *procguard.Guard, stdout, stderr io.Writer) int {
	return runCommand("read", &readCommand{offerOptions{guard: guard}}, args, stdio{out: stdout, err: stderr})
}

// readCommand is `mcplens read`; what is the URI.
type readCommand struct{ offerOptions }

func (c *readCommand) parse(fset *flag.FlagSet, args []string) error {
	c.register(fset)
	return c.offerOptions.parse(args, "usage: mcplens read [PATH] SERVER URI [--client NAME[@VERSION]] [--timeout D]\n\n"+
		"Starts the server labelled SERVER alone, reads the resource URI (resources/read) and prints the frames\n"+
		"as they crossed the wire, then its contents (binary contents as type, MIME type and size).\n"+
		"Exit status: 0 on success, 1 when the read failed, 2 for a usage or config error.\n\n")
}

// Run reads the resource.
func (c *readCommand) Run(ctx context.Context, std stdio) error {
	return c.run(ctx, std, func(ctx context.Context, s *loader.Session) ([]loader.Content, error) {
		read, err := s.ReadResource(ctx, c.server, c.what)
		return read.Contents, err
	})
}

// runPrompt is `mcplens prompt [PATH] SERVER NAME [--arg K=V]... [--complete ARG]`.
func runPrompt(args []string, guard *procguard.Guard, stdout, stderr io.Writer) int {
	return runCommand("prompt", &promptCommand{offerOptions: offerOptions{guard: guard}}, args, stdio{out: stdout, err: stderr})
}

// promptCommand is `mcplens prompt`; what is the prompt's NAME.
type promptCommand struct {
	offerOptions
	args     promptArgs
	complete string
}

func (c *promptCommand) parse(fset *flag.FlagSet, args []string) error {
	c.register(fset)
	fset.Var(&c.args, "arg", "a prompt argument, K=V (repeatable)")
	fset.StringVar(&c.complete, "complete", "", "print the values the server completes argument ARG with (completion/complete; the --arg values are its context) instead of getting the prompt")
	return c.offerOptions.parse(args, "usage: mcplens prompt [PATH] SERVER NAME [--arg K=V]... [--complete ARG] [--client NAME[@VERSION]] [--timeout D]\n\n"+
		"Starts the server labelled SERVER alone, gets its prompt NAME with the --arg values (prompts/get) and prints\n"+
		"the frames as they crossed the wire, then the prompt's messages; with --complete, the values offered for ARG.\n"+
		"Exit status: 0 on success, 1 when the request failed, 2 for a usage or config error.\n\n")
}

// Run gets the prompt, or completes its argument.
func (c *promptCommand) Run(ctx context.Context, std stdio) error {
	values, server, name, complete := map[string]string(c.args), c.server, c.what, c.complete
	return c.run(ctx, std, func(ctx context.Context, s *loader.Session) ([]loader.Content, error) {
		if complete != "" {
			known := maps.Clone(values)
			delete(known, complete)
			c, err := s.Complete(ctx, server, loader.CompletionRef{Prompt: name}, complete, values[complete], known)
			var out []loader.Content
			for _, v := range c.Values {
				out = append(out, loader.Content{Type: "value", Text: v})
			}
			return out, err
		}
		got, err := s.GetPrompt(ctx, server, name, values)
		var out []loader.Content
		for _, m := range got.Messages {
			m.Content.Type = m.Role + " · " + m.Content.Type
			out = append(out, m.Content)
		}
		return out, err
	})
}

// offerOptions are the flags and arguments read and prompt share:
// [PATH] SERVER WHAT.
type offerOptions struct {
	fset *flag.FlagSet
	// serverFlags: the client (who), the limits and the timeout.
	serverFlags
	guard              *procguard.Guard
	path, server, what string
}

func (o *offerOptions) register(fset *flag.FlagSet) {
	o.fset = fset
	o.serverFlags.register(fset, o.guard, flagWords{config: "PATH",
		timeout: "bound on the server's connect and on the request (default: the config's own connect timeout, else 20s)"})
}

// parse parses the command's arguments, [PATH] SERVER WHAT.
func (o *offerOptions) parse(args []string, usage string) error {
	pos, err := parseCommand(o.fset, args, usage)
	if err != nil {
		return err
	}
	if len(pos) < 2 || len(pos) > 3 {
		return usageShown(o.fset)
	}
	if len(pos) == 3 {
		o.path = pos[0]
	}
	o.server, o.what = pos[len(pos)-2], pos[len(pos)-1]
	return nil
}

// run starts server alone, makes the request do and prints what crossed
// the wire and what it answered.
func (o *offerOptions) run(ctx context.Context, std stdio, do func(context.Context, *loader.Session) ([]loader.Content, error)) error {
	path, server, stdout := o.path, o.server, std.out
	fail := usageError
	if _, _, err := o.who.profile(); err != nil {
		return fail(err)
	}
	if err := o.limits.FromEnv(nil); err != nil {
		return fail(err)
	}
	cfg, err := configWith(path, config.Options{Format: o.configFormat, MaxSize: o.limits.WithDefaults().Config})
	if err != nil {
		return fail(err)
	}
	i := slices.IndexFunc(cfg.Servers, func(s config.ServerSpec) bool { return s.Label == server })
	if i < 0 {
		return usagef("no server %q in %s", model.Sanitize(server), model.Sanitize(cfg.Path))
	}
	o.who.adopt(cfg, o.fset)
	cfg.Servers = cfg.Servers[i : i+1]

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	session := loader.Open(cfg, o.who.session(cfg, loader.Options{Timeout: o.timeout, Limits: o.limits}))
	defer session.Close()
	snap, err := settle.Session(ctx, cfg, session, o.timeout)
	if errors.Is(err, settle.ErrInterrupted) {
		return failError(errors.New("interrupted"))
	}
	red := snap.Redact
	if st := snap.Servers[0]; st.State != mcpsession.Ready {
		return failf("server %s is %s: %s", model.Sanitize(server), st.State, model.Sanitize(red.Text(st.Err)))
	}
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, callLimit(o.timeout))
	contents, err := do(rctx, session)
	cancel()
	san := func(s string) string { return model.Sanitize(red.Values(s)) }
	for _, f := range session.FrameLog(server).Frames() {
		if f.At.Before(start) {
			continue
		}
		fmt.Fprintf(stdout, "%s %s %s\n", arrow(f.Dir), san(server), san(string(f.Bytes)))
	}
	if err != nil {
		return failError(errors.New(model.Sanitize(red.Text(err.Error()))))
	}
	for _, c := range contents {
		head := c.Type
		if c.URI != "" {
			head += " · " + c.URI
		}
		if c.MIMEType != "" {
			head += " · " + c.MIMEType
		}
		switch {
		case c.BlobErr != "":
			head += " · " + c.BlobErr
		case len(c.Blob) > 0:
			head += fmt.Sprintf(" · %d bytes", len(c.Blob))
		}
		fmt.Fprintf(stdout, "%s\n", san(head))
		if c.Text != "" {
			fmt.Fprintf(stdout, "%s\n", sanLines(red.Values(c.Text)))
		}
	}
	return nil
}

// promptArgs is prompt's --arg K=V, repeatable: a prompt's arguments
// are strings, so none is typed (call's argList types them by schema).
type promptArgs map[string]string

func (a *promptArgs) String() string { return "" }

func (a *promptArgs) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want K=V, got %q", s)
	}
	if *a == nil {
		*a = promptArgs{}
	}
	(*a)[k] = v
	return nil
}
