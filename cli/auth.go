package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/oauth"
)

// runLogout is `mcplens logout CONFIG [SERVER|--all]`.
func runLogout(args []string, stdout, stderr io.Writer) int {
	return runCommand("logout", &logoutCommand{}, args, stdio{out: stdout, err: stderr})
}

// logoutCommand is `mcplens logout`.
type logoutCommand struct {
	all bool
	pos []string
}

func (c *logoutCommand) parse(fset *flag.FlagSet, args []string) (err error) {
	fset.BoolVar(&c.all, "all", false, "forget every token mcplens keeps, whatever the config")
	c.pos, err = parseCommand(fset, args, "usage: mcplens logout CONFIG [SERVER|--all]\n\n"+
		"Forgets the tokens of SERVER (of every remote server of CONFIG when none is named; with --all, every token kept).\n\n")
	if err != nil {
		return err
	}
	if len(c.pos) > 2 || (len(c.pos) < 1 && !c.all) || (c.all && len(c.pos) > 1) {
		return usageShown(fset)
	}
	return nil
}

// Run forgets the tokens.
func (c *logoutCommand) Run(_ context.Context, std stdio) error {
	store, err := tokenStore()
	if err != nil {
		return usageError(err)
	}
	var urls []string
	if !c.all {
		_, specs, _, err := authSetup(c.pos[0], c.pos[1:])
		if err != nil {
			return err
		}
		for _, s := range specs {
			urls = append(urls, s.URL)
		}
	}
	n, err := store.Delete(urls)
	if err != nil {
		return failError(err)
	}
	fmt.Fprintf(std.out, "forgot %d token(s)\n", n)
	return nil
}

// authUsage is what `mcplens auth` without status says.
const authUsage = "usage: mcplens auth status CONFIG\n"

// runAuth is `mcplens auth status CONFIG`.
func runAuth(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 || args[0] != "status" {
		return exit(stderr, "auth", &exitError{code: exitUsage, after: authUsage})
	}
	return runCommand("auth status", &authStatusCommand{}, args[1:], stdio{out: stdout, err: stderr})
}

// authStatusCommand is `mcplens auth status`.
type authStatusCommand struct{ path string }

func (c *authStatusCommand) parse(fset *flag.FlagSet, args []string) error {
	pos, err := parseCommand(fset, args, "usage: mcplens auth status CONFIG\n\n"+
		"Says, for each remote server of CONFIG, how it is authorized: a header of the config's, a stored token (never shown), or nothing yet.\n\n")
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageShown(fset)
	}
	c.path = pos[0]
	return nil
}

// Run says how each remote server is authorized.
func (c *authStatusCommand) Run(_ context.Context, std stdio) error {
	cfg, _, store, err := authSetup(c.path, nil)
	if err != nil {
		return err
	}
	for _, s := range cfg.Servers {
		if s.Transport == config.TransportStdio || s.Transport == "" {
			continue
		}
		fmt.Fprintf(std.out, "%s\t%s\n", model.Sanitize(s.Label), authState(store, s))
	}
	return nil
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
// the token store; the error is a usageError.
func authSetup(path string, names []string) (*config.Config, []config.ServerSpec, *oauth.Store, error) {
	cfg, err := configWith(path, config.Options{})
	if err == nil && cfg.Path == "" {
		err = errors.New("the demo has no remote servers: name a config")
	}
	if err != nil {
		return nil, nil, nil, usageError(err)
	}
	specs, err := remoteServers(cfg, names)
	if err == nil && specs == nil {
		specs = []config.ServerSpec{}
	}
	if err != nil {
		return nil, nil, nil, usageError(err)
	}
	store, err := tokenStore()
	if err != nil {
		return nil, nil, nil, usageError(err)
	}
	return cfg, specs, store, nil
}
