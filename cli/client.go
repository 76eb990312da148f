package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// clientOptions choose who mcplens connects as, for the interface, check
// and call: a client profile's handshake, and the roots it answers
// roots/list with.
type clientOptions struct {
	// client is --client NAME[@VERSION]; "" connects as mcplens itself,
	// and so does neutralClient (or "none"), which a config of a known
	// client's format does not override (adopt).
	client string
	roots  rootList
	// protocol is --protocol: the revision forced on every server, "" for
	// the handshake's own.
	protocol protocolFlag
	// adopted is the config format the client was taken from (adopt), ""
	// when it was given or there is none.
	adopted string
	// guard is the process guard of the stdio servers sessions start
	// (nil: unguarded), passed in by Main; no flag sets it.
	guard *procguard.Guard
}

// neutralClient is --client's name for mcplens's own handshake; "none" is
// taken for it too.
const neutralClient = "mcplens"

// neutralName is how a report names a connection with mcplens's own
// handshake, shared by the profiles that exist only as naming policies.
const neutralName = neutralClient + " (neutral)"

// isNeutral reports whether --client names mcplens's own handshake.
func isNeutral(name string) bool { return name == neutralClient || name == "none" }

// register adds --client and --root to fs.
func (o *clientOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.client, "client", "", "connect as this client: its handshake (clientInfo, capabilities, protocol, headers) and, "+
		"unless --policy is given, its naming policy; NAME or NAME@VERSION: "+strings.Join(model.ClientKeys(), ", ")+
		"; "+neutralClient+" (or none) for mcplens's own (default: the client whose config format PATH is in, unless --policy is given)")
	fs.Var(&o.roots, "root", "a folder the client answers roots/list with (repeatable; default: the config file's folder)")
	fs.Var(&o.protocol, "protocol", protocolHelp)
}

// profile returns the --client profile; ok is false without --client.
func (o clientOptions) profile() (c model.Client, ok bool, err error) {
	if o.client == "" || isNeutral(o.client) {
		return model.Client{}, false, nil
	}
	c, err = model.ClientNamed(o.client)
	return c, err == nil, err
}

// policy is the naming policy a run uses: --policy when given, else the
// --client profile's, else policy (--policy's default).
func (o clientOptions) policy(fs *flag.FlagSet, policy string) string {
	c, ok, _ := o.profile()
	if !ok || flagSet(fs, "policy") {
		return policy
	}
	return c.Policy
}

// session is what loader.Options takes from the command line: the
// handshake (mcplens's neutral one without --client), the roots, by default
// the folder of cfg's file (the working directory for the demo), the guard,
// and the stored OAuth tokens of cfg's servers (never a browser).
func (o clientOptions) session(cfg *config.Config, opts loader.Options) loader.Options {
	opts.Guard = o.guard
	if opts.HTTPAuth == nil {
		opts.HTTPAuth = httpAuth(cfg)
	}
	if c, ok, _ := o.profile(); ok {
		opts.Handshake = c.Handshake
	}
	opts.Protocol = string(o.protocol)
	opts.Answers.Roots = o.roots
	if len(opts.Answers.Roots) == 0 {
		dir := "."
		if fi, err := os.Stat(cfg.Path); err == nil && !fi.IsDir() {
			dir = filepath.Dir(cfg.Path)
		}
		if abs, err := filepath.Abs(dir); err == nil {
			opts.Answers.Roots = []string{abs}
		}
	}
	return opts
}

// adopt makes the client the one whose config format cfg is in, when
// neither --client nor --policy was given on fs and the format is a
// profiled client's: a VS Code config opens as vscode. --client mcplens
// keeps mcplens's own handshake.
func (o *clientOptions) adopt(cfg *config.Config, fs *flag.FlagSet) {
	if o.client != "" || flagSet(fs, "policy") || cfg.Format == "" {
		return
	}
	if c, err := model.ClientNamed(cfg.Format); err == nil {
		o.client, o.adopted = c.Key(), cfg.Format
	}
}

// name is the client a report or a header names: the profile's key, ""
// without --client.
func (o clientOptions) name() string {
	c, ok, _ := o.profile()
	if !ok {
		return ""
	}
	return c.Key()
}

// why says how the client was chosen when the user did not choose it: ""
// or "the config is in vscode's format; --client mcplens connects as
// mcplens".
func (o clientOptions) why() string {
	if o.adopted == "" {
		return ""
	}
	return fmt.Sprintf("the config is in %s's format; --client %s connects as mcplens", o.adopted, neutralClient)
}

// flagSet reports whether the flag name was given on fs's command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// A rootList is --root, repeatable: folders that exist, made absolute. A
// missing folder or a file is refused (a usage error), never offered to
// the servers.
type rootList []string

func (r *rootList) String() string { return strings.Join(*r, ",") }

func (r *rootList) Set(v string) error {
	abs, err := filepath.Abs(v)
	if err != nil {
		return fmt.Errorf("--root %q: %w", v, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such folder", model.Sanitize(abs))
	case err != nil:
		return fmt.Errorf("%s: %w", model.Sanitize(abs), err)
	case !fi.IsDir():
		return fmt.Errorf("%s: not a folder", model.Sanitize(abs))
	}
	*r = append(*r, abs)
	return nil
}

// A connection is one distinct handshake among the clients of --clients,
// and the clients that send it: servers are connected to once per
// connection.
type connection struct {
	clients   []string
	handshake model.Handshake
}

// parseClients reads --clients: profile keys (NAME or NAME@VERSION, or
// neutralClient) separated by commas, or "all": mcplens's own handshake
// first, then every profile. It returns the keys as given, in order.
func parseClients(list string) ([]string, error) {
	if strings.TrimSpace(list) == "all" {
		return append([]string{neutralClient}, model.ClientKeys()...), nil
	}
	var keys []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
			continue
		case isNeutral(k):
			k = neutralClient
		default:
			c, err := model.ClientNamed(k)
			if err != nil {
				return nil, fmt.Errorf("--clients: %w", err)
			}
			k = c.Key()
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) < 2 {
		return nil, fmt.Errorf("--clients %q: want at least two clients to compare, or all", list)
	}
	return keys, nil
}

// connections groups the clients of keys (parseClients) by handshake, in
// the order each handshake first appears. Every client sending mcplens's
// neutral handshake (the profiles that exist only as naming policies) is
// named neutralName once.
func connections(keys []string) []connection {
	var out []connection
	for _, k := range keys {
		h := model.NeutralHandshake()
		if !isNeutral(k) {
			c, _ := model.ClientNamed(k)
			h = c.Handshake
		}
		name := k
		if reflect.DeepEqual(h, model.NeutralHandshake()) {
			name = neutralName
		}
		i := slices.IndexFunc(out, func(c connection) bool { return reflect.DeepEqual(c.handshake, h) })
		if i < 0 {
			out = append(out, connection{handshake: h})
			i = len(out) - 1
		}
		if !slices.Contains(out[i].clients, name) {
			out[i].clients = append(out[i].clients, name)
		}
	}
	return out
}
