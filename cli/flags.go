package cli

import (
	"flag"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
)

// serverFlags is the one flag group for choosing the servers a command
// starts, the client it connects as, the naming policy, the input limits
// and the connect timeout: --config-format, --timeout, --limit, --client,
// --root, --policy and, for a command that takes a server on the command
// line, --server, --url, --transport, --header and -- CMD ARGS. Every
// command that starts servers registers it (register); what its help says
// where commands differ is the command's flagWords.
type serverFlags struct {
	// configFormat is the config's format, "" to detect it.
	configFormat string
	// timeout bounds each server's connect (0: the config's own, else
	// loader.DefaultTimeout).
	timeout time.Duration
	limits  loader.Limits
	// policy is --policy: the naming policy's name ("" where the command's
	// default is the client's).
	policy string
	// who is the client mcplens connects as (--client, --root), with the
	// guard its sessions run under.
	who clientOptions
	// where is a server given on the command line (--server, --url,
	// --header, -- CMD ARGS), when flagWords.adhoc registered it.
	where adhoc
}

// flagWords are what a command's help says of the group where commands
// differ.
type flagWords struct {
	// config names what --config-format reads: "PATH", "CONFIG".
	config string
	// timeout is --timeout's help; "" for the connect timeout alone.
	timeout string
	// policy is --policy's help before the policies' names; "" for a
	// command without --policy. policyDefault is its default.
	policy, policyDefault string
	// adhoc registers --server, --url, --transport and --header.
	adhoc bool
}

// connectTimeoutHelp is --timeout's help where it bounds the connect alone.
const connectTimeoutHelp = "bound on each server's connect (default: the config's own, else 20s)"

// register adds the group's flags to fs; guard is the process guard the
// command's sessions run under (nil: unguarded).
func (g *serverFlags) register(fs *flag.FlagSet, guard *procguard.Guard, w flagWords) {
	if w.policy != "" {
		fs.StringVar(&g.policy, "policy", w.policyDefault, w.policy+policyNames())
	}
	timeout := w.timeout
	if timeout == "" {
		timeout = connectTimeoutHelp
	}
	fs.DurationVar(&g.timeout, "timeout", 0, timeout)
	registerLimits(fs, &g.limits)
	fs.StringVar(&g.configFormat, "config-format", "", "read "+w.config+" as this client's format (default: detected): "+formatNames())
	g.who.guard = guard
	g.who.register(fs)
	if w.adhoc {
		g.where.register(fs)
	}
}

// registerLimits adds --limit to fs: the group's, and that of the commands
// that read files but start no server (offline, tap har).
func registerLimits(fs *flag.FlagSet, l *loader.Limits) {
	fs.Var(l, "limit", "raise one input limit, NAME=SIZE (repeatable; or MCPLENS_LIMIT_NAME): "+limitHelp())
}
