package config

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcplens/mcplens/internal/bounded"
)

// An EnvVar is one entry of a server's environment, kept in file order.
type EnvVar struct{ Key, Value string }

// A Header is one HTTP header a remote server's requests carry, kept in
// file order.
type Header struct{ Name, Value string }

// The transports a ServerSpec names.
const (
	TransportStdio = "stdio" // a child process spoken to over its stdin and stdout
	TransportHTTP  = "http"  // streamable HTTP
	TransportSSE   = "sse"   // the older HTTP with server-sent events
)

// A ServerSpec is one server of a config, as the client that reads the file
// would start it: variables expanded, filters and timeout read.
type ServerSpec struct {
	// Label is the server's key in the config: the server label.
	// Declaration order matters (the first-declared server wins under the
	// legacy policies), so specs are kept in file order.
	Label string
	// Line and Col are where the label is written in the file, 1-based
	// (Col counts characters); 0 for a server no file declares (the demo).
	Line, Col int
	// Format is the config format the server was read from ("vscode").
	Format string
	// Transport is TransportStdio, TransportHTTP or TransportSSE; "" means
	// stdio.
	Transport string
	Command   string
	Args      []string
	Env       []EnvVar // in file order
	Cwd       string   // the child's working directory; "" means mcplens's
	URL       string   // for http and sse
	Headers   []Header // for http and sse, in file order
	// OAuth is the config's OAuth client for the server (its "oauth" or
	// "auth" object), nil when it has none.
	OAuth *OAuth
	// Timeout is the config's own bound on connecting; 0 means none given.
	Timeout time.Duration
	// IncludeTools, when not empty, are the only tools the client keeps;
	// ExcludeTools are withheld even so. Disabled withholds every tool.
	// Withheld rows are still listed, each marked FilteredBy.
	IncludeTools []string
	ExcludeTools []string
	Disabled     bool
	// Blocked says why the server is not started: its command or URL could
	// not be resolved, or there is nothing to start. "" when it can be.
	Blocked string
	// Findings are what a reader of the config should know about this
	// server: unknown keys, unresolved variables, settings mcplens does not
	// apply. Each starts with "line:col: " where it has a position.
	Findings []string
	// Unknown lists the server's keys that its format does not define, in
	// file order (each is also a finding).
	Unknown []string
	// Expanded holds the secret values that variables in the server's
	// strings took from the environment or from inputs (${env:API_TOKEN},
	// $DB_PASSWORD, a password ${input:ID}, or any value that looks like a
	// credential): a config references its secrets that way, so they are
	// masked wherever they appear, like env and header values.
	Expanded []string
}

// An Input is a value a VS Code config asks the user for, referenced as
// ${input:ID}.
type Input struct {
	ID, Type, Description string
	Password              bool
}

// A Config is a parsed config file: its servers in declaration order.
type Config struct {
	Path string
	// Format is the format the file was read as (see Formats).
	Format  string
	Servers []ServerSpec
	// Findings are about the file as a whole.
	Findings []string
	// Inputs are the inputs a VS Code config declares, in file order.
	Inputs []Input
	// Project is the project of ~/.claude.json whose servers were added.
	Project string
}

// An Error is a config that cannot be used, with the position of the
// offending token. Line and Col are 1-based (Col counts characters); both
// are 0 when the error has no position.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
	// Err is the cause when it is an error of its own (a *SizeError).
	Err error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// Options tune how a config is read. The zero value reads the file as
// its client would on this machine.
type Options struct {
	// Format forces a format by name (see Formats); "" detects it from the
	// file's name and content.
	Format string
	// Project picks the project of ~/.claude.json whose servers are added to
	// the user's; "" means the current directory, when it is one.
	Project string
	// LookupEnv resolves environment variables; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Home is ${userHome}; "" means the user's home directory.
	Home string
	// Workspace is ${workspaceFolder}; "" means the folder holding the
	// file's .vscode or .cursor folder, else the current directory.
	Workspace string
	// Inputs answers VS Code's ${input:ID} variables, by ID.
	Inputs map[string]string
	// MaxSize bounds the config file, in bytes; 0 means DefaultMaxSize.
	// An envFile it names is bounded alike.
	MaxSize int64
}

// DefaultMaxSize is the size a config file may have unless raised
// (--limit config=SIZE).
const DefaultMaxSize = 4 << 20

// maxSize is the bound on a config file that o sets.
func (o Options) maxSize() int64 {
	if o.MaxSize > 0 {
		return o.MaxSize
	}
	return DefaultMaxSize
}

// A SizeError says that a config file is over its bound (Options.MaxSize).
type SizeError struct {
	Max  int64  // the bound in force
	What string // what went over it: the file's path, or "the file"
}

func (e *SizeError) Error() string {
	return (&bounded.LimitError{Limit: "config", Max: e.Max, What: e.What}).Error()
}

// Load reads and parses the config file at path, detecting its format.
func Load(path string) (*Config, error) {
	return LoadWith(path, Options{})
}

// LoadWith reads and parses the config file at path. A file that is
// not a regular file (a FIFO, a device, a socket) is refused without
// blocking; one over opts.MaxSize is refused unread.
func LoadWith(path string, opts Options) (*Config, error) {
	data, err := readConfigFile(path, opts.maxSize())
	if err != nil {
		return nil, fmt.Errorf("loading config: %w", err)
	}
	return ParseWith(path, data, opts)
}

// readConfigFile reads the file at path, which must be a regular file of
// at most limit bytes (bounded.ReadFile: a FIFO is refused rather than
// waited on, a device since /dev/zero never ends and a terminal may never
// answer).
func readConfigFile(path string, limit int64) ([]byte, error) {
	data, err := bounded.ReadFile(path, limit, "config")
	if errors.Is(err, bounded.ErrLimit) {
		return nil, &SizeError{Max: limit, What: path}
	}
	return data, err
}

// Parse parses data, the contents of the config file at path,
// detecting its format. Every error is a *Error, naming
// path:line:col where it has a position.
func Parse(path string, data []byte) (*Config, error) {
	return ParseWith(path, data, Options{})
}

// ParseWith parses data, the contents of the config file at path.
// An unknown key or an unresolved variable is a finding, not an error; a
// server that cannot be started is Blocked, saying why.
func ParseWith(path string, data []byte, opts Options) (*Config, error) {
	if limit := opts.maxSize(); int64(len(data)) > limit {
		over := &SizeError{Max: limit, What: "the file"}
		return nil, &Error{Path: path, Msg: over.Error(), Err: over}
	}
	var f format
	if opts.Format != "" {
		if f = formatNamed(opts.Format); f == nil {
			return nil, &Error{Path: path, Msg: fmt.Sprintf("unknown format %q (want one of: %s)", opts.Format, formatNames())}
		}
	}
	d, f, err := readDoc(path, data, f)
	if err != nil {
		return nil, err
	}
	r := newReader(d, f, opts)
	if err := f.read(r); err != nil {
		return nil, err
	}
	if d.jsonc && r.lay.strict {
		r.cfg.Findings = append(r.cfg.Findings, fmt.Sprintf(
			"the file has comments or trailing commas, which are not JSON: %s would reject it", r.lay.Client))
	}
	return r.cfg, nil
}

// readDoc parses the file and settles its format: the one given, else the
// one its name says, else the one its content fits.
func readDoc(path string, data []byte, f format) (*doc, format, error) {
	if f == nil {
		f = formatAt(path)
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case f != nil && f.layout().toml, f == nil && ext == ".toml":
		d, err := parseTOML(path, data)
		if err != nil {
			return nil, nil, err
		}
		if f == nil {
			if f = formatFitting(d.root); f == nil {
				return nil, nil, notAConfig(d)
			}
		}
		return d, f, nil
	case f != nil:
		d, err := parseJSON(path, data)
		return d, f, err
	}

	d, err := parseJSON(path, data)
	if err != nil && ext != ".json" && ext != ".jsonc" {
		if td, terr := parseTOML(path, data); terr == nil {
			d, err = td, nil
		}
	}
	if err != nil {
		if ce, ok := err.(*Error); ok && ext != ".json" && ext != ".jsonc" {
			ce.Msg = fmt.Sprintf("not a config: neither JSON nor TOML (tried %s): %s", formatNames(), ce.Msg)
		}
		return nil, nil, err
	}
	if f = formatFitting(d.root); f == nil {
		return nil, nil, notAConfig(d)
	}
	return d, f, nil
}

// notAConfig says which formats were tried on a document that fits none.
func notAConfig(d *doc) error {
	if d.root.kind != objectNode {
		return d.errorAt(d.root.off, fmt.Sprintf("not an MCP client config: the top level is %s (tried %s)",
			d.root.describe(), formatNames()))
	}
	return &Error{Path: d.path, Line: 1, Col: 1, Msg: fmt.Sprintf(
		"not an MCP client config: no %s key at the top level (tried %s)", serversKeys(), formatNames())}
}

// workspaceOf is the folder a project config belongs to: the parent of the
// client's folder holding it (.vscode, .cursor; see layout.project), else
// the current directory.
func workspaceOf(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(abs)
	for _, f := range formats {
		if folder := path.Dir(f.layout().project); folder != "." && filepath.Base(dir) == folder {
			return filepath.Dir(dir)
		}
	}
	wd, _ := os.Getwd()
	return wd
}
