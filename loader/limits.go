package loader

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mcplens/mcplens/internal/bounded"
)

// Limits bound every input mcplens reads from a server or a config, in the
// bytes, before anything buffers them: a server that floods one of them
// fails (or its call fails) with a *LimitError naming the limit, and every
// other server goes on. A zero field takes its default (DefaultLimits).
//
// Each limit can be raised by name: on the command line with
// --limit NAME=SIZE (repeatable), or with the environment variable
// MCPLENS_LIMIT_NAME=SIZE; the flag wins.
type Limits struct {
	// Line bounds one line read from a stdio server's stdout: one JSON-RPC
	// message, or one piece of junk.
	Line int64
	// Body bounds one HTTP response body as it crossed the network (after
	// any Content-Encoding was undone by the transport, it is bounded by
	// Inflated as well).
	Body int64
	// Inflated bounds one HTTP response body once decompressed: a small
	// gzip body can inflate to gigabytes.
	Inflated int64
	// Event bounds one server-sent event (all its data: lines together),
	// on a POST's response stream or on the listening GET.
	Event int64
	// Page bounds one tools/list answer's result.
	Page int64
	// Listing bounds all the pages of one server's tools/list together.
	Listing int64
	// Result bounds one tools/call answer's result.
	Result int64
	// ErrorBody bounds what is read of an HTTP error response's body; the
	// rest is discarded, not read into memory.
	ErrorBody int64
	// Config bounds a config file's size.
	Config int64
	// Question bounds the params of one request a server asks the user
	// (sampling/createMessage, elicitation/create): a bigger one is
	// answered with an error and never shown.
	Question int64
	// Document bounds a file read whole that is not a config: a lock, a
	// snapshot, a --replay file.
	Document int64
	// File bounds a file read line by line: a recording, the input of tap
	// har, a history. It is streamed, so it bounds time, not memory; each
	// of its lines is bounded by Line.
	File int64
}

// DefaultLimits are the limits a run has unless raised. Together they keep
// `mcplens check` under about 300 MB against a server that floods any one
// of them (the README's "When servers misbehave").
var DefaultLimits = Limits{
	Line:      bounded.DefaultLine,
	Body:      16 << 20,
	Inflated:  32 << 20,
	Event:     16 << 20,
	Page:      16 << 20,
	Listing:   64 << 20,
	Result:    16 << 20,
	ErrorBody: 64 << 10,
	Config:    4 << 20,
	Question:  8 << 20,
	Document:  64 << 20,
	File:      bounded.DefaultTotal,
}

// A limitName is one of the Limits, by the name users give it.
type limitName struct {
	name  string
	field func(*Limits) *int64
	what  string
}

// limitNames maps each limit's name (as --limit and MCPLENS_LIMIT_* spell
// it) to its field, in the order the README lists them.
var limitNames = []limitName{
	{"line", func(l *Limits) *int64 { return &l.Line }, "one line of a stdio server's stdout"},
	{"body", func(l *Limits) *int64 { return &l.Body }, "one HTTP response body, as sent"},
	{"inflated", func(l *Limits) *int64 { return &l.Inflated }, "one HTTP response body, decompressed"},
	{"event", func(l *Limits) *int64 { return &l.Event }, "one server-sent event"},
	{"page", func(l *Limits) *int64 { return &l.Page }, "one tools/list page"},
	{"listing", func(l *Limits) *int64 { return &l.Listing }, "all tools/list pages of one server"},
	{"result", func(l *Limits) *int64 { return &l.Result }, "one tools/call result"},
	{"error-body", func(l *Limits) *int64 { return &l.ErrorBody }, "what is kept of an HTTP error body"},
	{"config", func(l *Limits) *int64 { return &l.Config }, "a config file"},
	{"question", func(l *Limits) *int64 { return &l.Question }, "one sampling or elicitation request a server sends"},
	{"document", func(l *Limits) *int64 { return &l.Document }, "a lock, a snapshot or a --replay file, read whole"},
	{"file", func(l *Limits) *int64 { return &l.File }, "a recording, tap har's input or a history, read line by line"},
}

// LimitNames returns the limits' names with what each bounds and its
// default, one per line, for --help.
func LimitNames() string {
	var b strings.Builder
	for _, n := range limitNames {
		fmt.Fprintf(&b, "%s (%s, default %s)\n", n.name, n.what, bounded.FormatSize(*n.field(&DefaultLimits)))
	}
	return b.String()
}

// WithDefaults returns l with every unset limit at its default.
func (l Limits) WithDefaults() Limits {
	for _, n := range limitNames {
		if p := n.field(&l); *p <= 0 {
			*p = *n.field(&DefaultLimits)
		}
	}
	return l
}

// Set sets one limit from "NAME=SIZE" (as --limit takes it).
func (l *Limits) Set(s string) error {
	name, size, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("limit %q: want NAME=SIZE, for example line=64MiB (names: %s)", s, limitList())
	}
	return l.set(strings.TrimSpace(name), size)
}

func (l *Limits) set(name, size string) error {
	i := slices.IndexFunc(limitNames, func(n limitName) bool { return n.name == name })
	if i < 0 {
		return fmt.Errorf("unknown limit %q (names: %s)", name, limitList())
	}
	n, err := ParseSize(size)
	if err != nil {
		return fmt.Errorf("limit %s: %w", name, err)
	}
	*limitNames[i].field(l) = n
	return nil
}

// String lists the limits that differ from their defaults, as --limit
// would take them.
func (l *Limits) String() string {
	if l == nil {
		return ""
	}
	var parts []string
	for _, n := range limitNames {
		if v := *n.field(l); v > 0 && v != *n.field(&DefaultLimits) {
			parts = append(parts, n.name+"="+bounded.FormatSize(v))
		}
	}
	return strings.Join(parts, ",")
}

// FromEnv sets each limit that is unset in l and named by an
// MCPLENS_LIMIT_NAME variable (MCPLENS_LIMIT_ERROR_BODY for error-body).
func (l *Limits) FromEnv(lookup func(string) (string, bool)) error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, n := range limitNames {
		if *n.field(l) > 0 {
			continue // the flag wins
		}
		if v, ok := lookup(envName(n.name)); ok && strings.TrimSpace(v) != "" {
			if err := l.set(n.name, v); err != nil {
				return fmt.Errorf("%s: %w", envName(n.name), err)
			}
		}
	}
	return nil
}

func envName(limit string) string { return bounded.EnvName(limit) }

func limitList() string {
	names := make([]string, len(limitNames))
	for i, n := range limitNames {
		names[i] = n.name
	}
	return strings.Join(names, ", ")
}

// A LimitError says that an input went over one of the Limits.
type LimitError = bounded.LimitError

// ErrLimit matches every *LimitError with errors.Is.
var ErrLimit = bounded.ErrLimit

// Lines is how a file read line by line is bounded under l: each line by
// the line limit, the file by the file limit.
func (l Limits) Lines() bounded.Lines {
	l = l.WithDefaults()
	return bounded.Lines{Line: l.Line, Total: l.File}
}

// ParseSize reads a size: a number of bytes, optionally with a unit (B,
// KB, KiB, MB, MiB, GB, GiB, or K, M, G, taken as the binary ones).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult, ok := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "kb": 1e3, "kib": 1 << 10,
		"m": 1 << 20, "mb": 1e6, "mib": 1 << 20,
		"g": 1 << 30, "gb": 1e9, "gib": 1 << 30,
	}[strings.ToLower(unit)]
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || num == "" {
		return 0, fmt.Errorf("size %q: want bytes with an optional unit, for example 64MiB", s)
	}
	n := v * mult
	if n < 1 || n > 1<<50 {
		return 0, fmt.Errorf("size %q: want from 1 byte to 1 PiB", s)
	}
	return int64(n), nil
}
