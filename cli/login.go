package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

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
	fset := flag.NewFlagSet("mcplens login", flag.ContinueOnError)
	fset.SetOutput(stderr)
	var o oauth.Options
	fset.StringVar(&o.ClientID, "client-id", "", "a pre-registered OAuth client ID, for a server whose config names none")
	fset.StringVar(&o.ClientSecret, "client-secret", "", "the pre-registered client's secret (with --client-id)")
	fset.StringVar(&o.ClientMetadataURL, "client-metadata-url", "", "the HTTPS URL of a client ID metadata document for mcplens")
	pos, code, ok := parseCommand(fset, args, stderr, "usage: mcplens login CONFIG [SERVER] [--client-id ID [--client-secret S]]\n\n"+
		"Runs the OAuth authorization flow for SERVER (every remote server of CONFIG without a token, when none is named)\n"+
		"in the browser ($BROWSER, else the system's), and keeps the token for check, call and the interface.\n\n")
	if !ok {
		return code
	}
	if len(pos) < 1 || len(pos) > 2 || (o.ClientSecret != "" && o.ClientID == "") {
		fset.Usage()
		return exitUsage
	}
	if badMetadataURL("login", o.ClientMetadataURL, stderr) {
		return exitUsage
	}
	cfg, specs, store, code := authSetup("login", pos[0], pos[1:], stderr)
	if cfg == nil {
		return code
	}
	if len(pos) == 1 {
		specs = withoutToken(store, specs)
		if len(specs) == 0 {
			fmt.Fprintln(stdout, "every remote server has a token; name one to log in again")
			return exitOK
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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
			fmt.Fprintf(stderr, "mcplens login: %s: %v\n", model.Sanitize(spec.Label), err)
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%s: logged in\n", model.Sanitize(spec.Label))
	}
	if failed > 0 {
		return exitFound
	}
	return exitOK
}

// badMetadataURL says on stderr why --client-metadata-url u is refused,
// and reports whether it is.
func badMetadataURL(cmd, u string, stderr io.Writer) bool {
	err := oauth.CheckClientMetadataURL(u)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens %s: --client-metadata-url: %v\n", cmd, err)
	}
	return err != nil
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

// runLogout is `mcplens logout CONFIG [SERVER|--all]`.
func runLogout(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("mcplens logout", flag.ContinueOnError)
	fset.SetOutput(stderr)
	all := fset.Bool("all", false, "forget every token mcplens keeps, whatever the config")
	pos, code, ok := parseCommand(fset, args, stderr, "usage: mcplens logout CONFIG [SERVER|--all]\n\n"+
		"Forgets the tokens of SERVER (of every remote server of CONFIG when none is named; with --all, every token kept).\n\n")
	if !ok {
		return code
	}
	if len(pos) > 2 || (len(pos) < 1 && !*all) || (*all && len(pos) > 1) {
		fset.Usage()
		return exitUsage
	}
	store, err := tokenStore()
	if err != nil {
		fmt.Fprintf(stderr, "mcplens logout: %v\n", err)
		return exitUsage
	}
	var urls []string
	if !*all {
		_, specs, _, code := authSetup("logout", pos[0], pos[1:], stderr)
		if specs == nil {
			return code
		}
		for _, s := range specs {
			urls = append(urls, s.URL)
		}
	}
	n, err := store.Delete(urls)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens logout: %v\n", err)
		return exitFound
	}
	fmt.Fprintf(stdout, "forgot %d token(s)\n", n)
	return exitOK
}

// runAuth is `mcplens auth status CONFIG`.
func runAuth(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 || args[0] != "status" {
		fmt.Fprintln(stderr, "usage: mcplens auth status CONFIG")
		return exitUsage
	}
	fset := flag.NewFlagSet("mcplens auth status", flag.ContinueOnError)
	fset.SetOutput(stderr)
	pos, code, ok := parseCommand(fset, args[1:], stderr, "usage: mcplens auth status CONFIG\n\n"+
		"Says, for each remote server of CONFIG, how it is authorized: a header of the config's, a stored token (never shown), or nothing yet.\n\n")
	if !ok {
		return code
	}
	if len(pos) != 1 {
		fset.Usage()
		return exitUsage
	}
	cfg, _, store, code := authSetup("auth status", pos[0], nil, stderr)
	if cfg == nil {
		return code
	}
	for _, s := range cfg.Servers {
		if s.Transport == config.TransportStdio || s.Transport == "" {
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", model.Sanitize(s.Label), authState(store, s))
	}
	return exitOK
}

// authState says how spec is authorized, never showing a secret.
func authState(store *oauth.Store, spec config.ServerSpec) string {
	if !oauth.Applies(spec) {
		return "Authorization header from the config"
	}
	e, err := store.Get(spec.URL, oauth.ClientKey(spec))
	switch {
	case err != nil:
		return model.Sanitize(err.Error())
	case e == nil || e.Token == nil:
		return "not logged in"
	}
	var parts []string
	parts = append(parts, "logged in ("+e.Registration+" client)")
	switch {
	case e.Token.Expiry.IsZero():
		parts = append(parts, "no expiry")
	case e.Token.Expiry.After(time.Now()):
		parts = append(parts, "expires "+e.Token.Expiry.Local().Format(time.DateTime))
	default:
		parts = append(parts, "expired "+e.Token.Expiry.Local().Format(time.DateTime))
	}
	if e.Token.RefreshToken != "" {
		parts = append(parts, "refreshable")
	}
	if e.Issuer != "" {
		parts = append(parts, "issuer "+model.Sanitize(model.RedactURL(e.Issuer)))
	}
	if len(e.Scopes) > 0 {
		parts = append(parts, "scopes "+model.Sanitize(strings.Join(e.Scopes, " ")))
	}
	return strings.Join(parts, ", ")
}

// authSetup reads the config, the servers named (or every remote one) and
// the token store; cfg is nil on failure, with the exit code.
func authSetup(cmd, path string, names []string, stderr io.Writer) (*config.Config, []config.ServerSpec, *oauth.Store, int) {
	cfg, err := configWith(path, config.Options{})
	if err == nil && cfg.Path == "" {
		err = errors.New("the demo has no remote servers: name a config")
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens %s: %v\n", cmd, err)
		return nil, nil, nil, exitUsage
	}
	specs, err := remoteServers(cfg, names)
	if err == nil && specs == nil {
		specs = []config.ServerSpec{}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplens %s: %v\n", cmd, err)
		return nil, nil, nil, exitUsage
	}
	store, err := tokenStore()
	if err != nil {
		fmt.Fprintf(stderr, "mcplens %s: %v\n", cmd, err)
		return nil, nil, nil, exitUsage
	}
	return cfg, specs, store, exitOK
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
