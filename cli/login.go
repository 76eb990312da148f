package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/oauth"
	"github.com/mcplens/mcplens/ui"
)

// loginBudget bounds one login: the user has this long to finish in the
// browser.
const loginBudget = oauth.LoginBudget

// tokenStore is where logins are kept: $MCPLENS_TOKENS when set (tests,
// CI), else the user's config folder.
func tokenStore() (*oauth.Store, error) {
	if p := os.Getenv("MCPLENS_TOKENS"); p != "" {
		return oauth.NewStore(p), nil
	}
	return oauth.DefaultStore()
}

// httpAuth is the loader's hook that authorizes the remote servers of cfg
// with their stored tokens; nil when there is nowhere to keep tokens.
func httpAuth(cfg *config.Config) func(config.ServerSpec, http.RoundTripper) http.RoundTripper {
	store, err := tokenStore()
	if err != nil {
		return nil
	}
	return authHook(oauth.Options{Store: store, Config: cfg.Path})
}

// authHook is the loader's hook that authorizes each remote server with o.
func authHook(o oauth.Options) func(config.ServerSpec, http.RoundTripper) http.RoundTripper {
	return func(spec config.ServerSpec, next http.RoundTripper) http.RoundTripper {
		if !oauth.Applies(spec) {
			return next
		}
		return oauth.NewTransport(spec, next, o)
	}
}

// remoteServers are the servers of cfg OAuth applies to, or those named.
func remoteServers(cfg *config.Config, names []string) ([]config.ServerSpec, error) {
	var out []config.ServerSpec
	for _, s := range cfg.Servers {
		if len(names) == 0 && oauth.Applies(s) {
			out = append(out, s)
		}
	}
	for _, n := range names {
		i := slices.IndexFunc(cfg.Servers, func(s config.ServerSpec) bool { return s.Label == n })
		if i < 0 {
			return nil, fmt.Errorf("no server %q in %s", n, cfg.Path)
		}
		if !oauth.Applies(cfg.Servers[i]) {
			return nil, fmt.Errorf("server %q: OAuth applies to a remote server with no Authorization header of its own", n)
		}
		out = append(out, cfg.Servers[i])
	}
	return out, nil
}

// runLogin is `mcplens login CONFIG [SERVER] [--client-id ID [--client-secret S]]`.
func runLogin(args []string, stdout, stderr io.Writer) int {
	return runCommand("login", &loginCommand{}, args, stdio{out: stdout, err: stderr})
}

// loginCommand is `mcplens login`: the OAuth options its flags set, the
// config and the server named.
type loginCommand struct {
	opts oauth.Options
	pos  []string
}

func (c *loginCommand) parse(fset *flag.FlagSet, args []string) (err error) {
	o := &c.opts
	fset.StringVar(&o.ClientID, "client-id", "", "a pre-registered OAuth client ID, for a server whose config names none")
	fset.StringVar(&o.ClientSecret, "client-secret", "", "the pre-registered client's secret (with --client-id)")
	fset.StringVar(&o.ClientMetadataURL, "client-metadata-url", "", "the HTTPS URL of a client ID metadata document for mcplens")
	c.pos, err = parseCommand(fset, args, "usage: mcplens login CONFIG [SERVER] [--client-id ID [--client-secret S]]\n\n"+
		"Runs the OAuth authorization flow for SERVER (every remote server of CONFIG without a token, when none is named)\n"+
		"in the browser ($BROWSER, else the system's), and keeps the token for check, call and the interface.\n\n")
	if err != nil {
		return err
	}
	if len(c.pos) < 1 || len(c.pos) > 2 || (o.ClientSecret != "" && o.ClientID == "") {
		return usageShown(fset)
	}
	return checkMetadataURL(o.ClientMetadataURL)
}

// checkMetadataURL refuses a --client-metadata-url oauth would not send,
// as a usage error.
func checkMetadataURL(u string) error {
	if err := oauth.CheckClientMetadataURL(u); err != nil {
		return usagef("--client-metadata-url: %v", err)
	}
	return nil
}

// Run logs in to each server in turn; a login that fails is said as it
// fails and the others are still tried.
func (c *loginCommand) Run(ctx context.Context, std stdio) error {
	pos, o, stdout := c.pos, c.opts, std.out
	cfg, specs, store, err := authSetup(pos[0], pos[1:])
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		specs = withoutToken(store, specs)
		if len(specs) == 0 {
			fmt.Fprintln(stdout, "every remote server has a token; name one to log in again")
			return nil
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Store, o.Config = store, cfg.Path
	o.Show = func(u string) {
		fmt.Fprintf(stdout, "Opening the browser; if it does not open, visit:\n  %s\n", model.Sanitize(u))
	}
	failed := 0
	for _, spec := range specs {
		fmt.Fprintf(stdout, "%s: logging in to %s\n", model.Sanitize(spec.Label), model.Sanitize(model.RedactURL(spec.URL)))
		lctx, cancel := context.WithTimeout(ctx, loginBudget)
		err := oauth.Login(lctx, spec, o)
		cancel()
		if err != nil {
			exit(std.err, "login", failf("%s: %v", model.Sanitize(spec.Label), err))
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%s: logged in\n", model.Sanitize(spec.Label))
	}
	if failed > 0 {
		return exitWith(exitFound)
	}
	return nil
}

// withoutToken are the specs with no usable stored token: none, or one
// expired that cannot be refreshed.
func withoutToken(store *oauth.Store, specs []config.ServerSpec) []config.ServerSpec {
	var out []config.ServerSpec
	for _, s := range specs {
		e, err := store.Get(s.URL, oauth.ClientKey(s))
		if err != nil || e == nil || e.Token == nil || !e.Token.Valid() && e.Token.RefreshToken == "" {
			out = append(out, s)
		}
	}
	return out
}

// loginFirst logs in to every remote server of cfg that has no token yet
// and refuses a client without one (check --login, call --login), before
// they connect, and returns the loader's hook whose transports log in
// themselves when a later request is refused (a server that lets
// initialize through, a step-up): the URL goes to stderr, which the
// report does not use. metadataURL is --client-metadata-url.
func loginFirst(ctx context.Context, cfg *config.Config, metadataURL string, stderr io.Writer) func(config.ServerSpec, http.RoundTripper) http.RoundTripper {
	store, err := tokenStore()
	if err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return nil
	}
	specs, _ := remoteServers(cfg, nil)
	o := oauth.Options{Store: store, Config: cfg.Path, ClientMetadataURL: metadataURL, Show: func(u string) {
		fmt.Fprintf(stderr, "Opening the browser; if it does not open, visit:\n  %s\n", model.Sanitize(u))
	}}
	for _, spec := range withoutToken(store, specs) {
		lctx, cancel := context.WithTimeout(ctx, loginBudget)
		if _, err := oauth.LoginIfAsked(lctx, spec, o); err != nil {
			fmt.Fprintf(stderr, "mcplens: %s: %v\n", model.Sanitize(spec.Label), err)
		}
		cancel()
	}
	o.Login = true
	return authHook(o)
}

// uiLogin is the login the interface's L runs: the URL is shown on screen
// and the browser opened; stdout and stderr are the interface's.
func uiLogin(cfg *config.Config) ui.Login {
	return func(ctx context.Context, label string, show func(string)) error {
		specs, err := remoteServers(cfg, []string{label})
		if err != nil {
			return err
		}
		store, err := tokenStore()
		if err != nil {
			return err
		}
		return oauth.Login(ctx, specs[0], oauth.Options{Store: store, Config: cfg.Path, Show: show})
	}
}
