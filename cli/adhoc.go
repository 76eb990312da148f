package cli

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/loader/config"
)

// commandLine is what a config built from the command line is called where
// a config's path is shown.
const commandLine = "command line"

// An adhoc is a server given on the command line instead of in a config
// file: `-- CMD ARGS...` (stdio), or --url URL with --header K:V
// (streamable HTTP, or SSE with --transport sse). It is one server, labelled
// from its command or host; --server picks one server of a config instead.
type adhoc struct {
	url       string
	transport string
	headers   headerList
	command   []string // what follows "--"
	// server is --server: the one server of the config to start.
	server string
}

// register adds --url, --header, --transport and --server to fs.
func (a *adhoc) register(fs *flag.FlagSet) {
	fs.StringVar(&a.url, "url", "", "connect to the MCP server at this URL instead of a config's servers (streamable HTTP)")
	fs.StringVar(&a.transport, "transport", config.TransportHTTP, "with --url: "+config.TransportHTTP+" (streamable HTTP) or "+config.TransportSSE)
	fs.Var(&a.headers, "header", "with --url: a header sent with every request, NAME:VALUE (repeatable)")
	fs.StringVar(&a.server, "server", "", "start only the server of this label: the others are neither started nor in the registry")
}

// given reports whether the server is given on the command line.
func (a adhoc) given() bool { return a.url != "" || len(a.command) > 0 }

// load returns the config a run works on: the ad-hoc server's when one is
// given (then path must be empty), else the file at path (the demo's when
// empty) read as opts say; with --server, only that server of it.
func (a adhoc) load(path string, opts config.Options) (*config.Config, error) {
	var cfg *config.Config
	var err error
	switch {
	case a.url != "" && len(a.command) > 0:
		return nil, errors.New("give --url or -- CMD ARGS..., not both")
	case a.given() && path != "":
		return nil, fmt.Errorf("give a config (%s) or a server on the command line, not both", path)
	case a.given():
		cfg, err = a.config()
	default:
		if a.url == "" && (len(a.headers) > 0 || a.transport != config.TransportHTTP) {
			return nil, errors.New("--header and --transport go with --url")
		}
		cfg, err = configWith(path, opts)
	}
	if err != nil {
		return nil, err
	}
	return a.only(cfg)
}

// config is the one-server config of the ad-hoc server.
func (a adhoc) config() (*config.Config, error) {
	spec := config.ServerSpec{Transport: config.TransportStdio}
	if a.url != "" {
		u, err := url.Parse(a.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--url %q: want an http:// or https:// URL", a.url)
		}
		if a.transport != config.TransportHTTP && a.transport != config.TransportSSE {
			return nil, fmt.Errorf("--transport %q: want %s or %s", a.transport, config.TransportHTTP, config.TransportSSE)
		}
		spec.Transport, spec.URL, spec.Headers = a.transport, a.url, a.headers
		spec.Label = labelOf(u.Hostname())
	} else {
		if len(a.headers) > 0 {
			return nil, errors.New("--header goes with --url")
		}
		spec.Command, spec.Args = a.command[0], a.command[1:]
		spec.Label = labelOf(commandName(a.command))
	}
	if a.server != "" && a.server != spec.Label {
		// --server names the ad-hoc server as a script would: let it.
		spec.Label = labelOf(a.server)
	}
	return &config.Config{Path: commandLine, Servers: []config.ServerSpec{spec}}, nil
}

// only keeps the server --server names, or says which labels there are.
func (a adhoc) only(cfg *config.Config) (*config.Config, error) {
	if a.server == "" || a.given() {
		return cfg, nil
	}
	i := slices.IndexFunc(cfg.Servers, func(s config.ServerSpec) bool { return s.Label == a.server })
	if i < 0 {
		var labels []string
		for _, s := range cfg.Servers {
			labels = append(labels, s.Label)
		}
		return nil, fmt.Errorf("--server %q: no such server in %s (its servers: %s)", a.server, cfg.Path, strings.Join(labels, ", "))
	}
	one := *cfg
	one.Servers = []config.ServerSpec{cfg.Servers[i]}
	return &one, nil
}

// launchers are commands that run the program named by their first
// argument that is not a flag: the server is named after that program.
var launchers = []string{"node", "nodejs", "bun", "deno", "npx", "pnpx", "bunx", "uvx", "uv", "pipx",
	"python", "python3", "py", "ruby", "java", "dotnet", "go", "docker", "podman", "sh", "bash"}

// launcherVerbs are the subcommands launchers take before the program.
var launcherVerbs = []string{"run", "exec", "x", "tool", "dlx"}

// generic are the names of files and folders that say nothing of the
// program they hold: a server is named after the nearest folder above them.
var generic = []string{"index", "main", "server", "cli", "app", "dist", "build", "lib", "src", "bin", "out", "node_modules", "__main__"}

// commandName names a stdio server after what it runs: the command, or for
// a launcher (node, npx, uvx, python, docker...) the program it launches:
// `npx -y @modelcontextprotocol/server-everything` is server-everything,
// and so is `node .../server-everything/dist/index.js`; `python -m
// my_server` is my_server.
func commandName(argv []string) string {
	name := programName(argv[0])
	if !slices.Contains(launchers, name) {
		return name
	}
	for _, arg := range argv[1:] {
		if strings.HasPrefix(arg, "-") || strings.Contains(arg, "=") || slices.Contains(launcherVerbs, arg) {
			continue // a flag, a flag's KEY=VALUE, a subcommand
		}
		if at := strings.LastIndex(arg, "@"); at > 0 && !strings.Contains(arg[at:], "/") {
			arg = arg[:at] // a package's version
		}
		if prog := programName(arg); prog != "" {
			return prog
		}
	}
	return name
}

// programName is the last element of a path that is not generic, without
// its extension; "" when there is none.
func programName(p string) string {
	elems := strings.Split(filepath.ToSlash(p), "/")
	for i := len(elems) - 1; i >= 0; i-- {
		name := strings.TrimSuffix(elems[i], filepath.Ext(elems[i]))
		if name != "" && name != "." && name != ".." && !slices.Contains(generic, name) {
			return name
		}
	}
	return ""
}

var notLabel = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// labelOf makes a server label of s: letters, digits, "-" and "_", at
// most 32 characters, never "__" (which a registered name uses as its
// separator), "server" when nothing is left.
func labelOf(s string) string {
	s = notLabel.ReplaceAllString(s, "-")
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	s = strings.Trim(s, "-_")
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "-_")
	}
	if s == "" {
		return "server"
	}
	return s
}

// A headerList is --header, repeatable: NAME:VALUE.
type headerList []config.Header

func (h *headerList) String() string {
	var names []string
	for _, x := range *h {
		names = append(names, x.Name+":…") // never a value: it may be a secret
	}
	return strings.Join(names, ",")
}

func (h *headerList) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
		return fmt.Errorf("want NAME:VALUE")
	}
	*h = append(*h, config.Header{Name: name, Value: strings.TrimSpace(value)})
	return nil
}
