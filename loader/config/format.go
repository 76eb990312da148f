package config

import (
	"fmt"
	"slices"
	"strings"
)

// A Format is one client's config file format.
type Format struct {
	// Name is the format's key, as given to --format.
	Name string
	// Client is the program that reads it.
	Client string
	// Files is where that client keeps it.
	Files string
}

// A format is how one client reads its config file. Each client has a file
// of its own (claudecode.go, vscode.go, ...) with a type that embeds
// defaults and overrides what its client does otherwise; formats lists
// them all.
type format interface {
	// layout is the format's name, files, syntax and keys.
	layout() *layout
	// claims reports whether a file named base in a folder named dir is
	// where the client keeps its config.
	claims(base, dir string) bool
	// fit says how surely a document's content is in this format.
	fit(root *node) fit
	// read reads the document's servers into r.cfg.
	read(r *reader) error
	// field reads one server key the format defines into raw.
	field(r *reader, raw *rawServer, m member) error
	// transport picks the transport the client would use for raw and its
	// URL as written; blocked says why the server cannot start, or "".
	transport(raw *rawServer) (transport, url, blocked string)
	// nothingToStart says why a server with no command cannot be started.
	nothingToStart(raw *rawServer) string
	// userFiles are where the client keeps the user's servers.
	userFiles(d userDirs) []string
}

// A layout is what a format is as data: its name, where its client keeps
// it, the key its servers are under, its syntax, and the keys a server
// may have.
type layout struct {
	Format
	serversKey string
	// project is where the client keeps a project's file, relative to the
	// project's folder (".vscode/mcp.json"); "" when it keeps none.
	project string
	// named is a file name only this client's file has
	// ("claude_desktop_config.json"): Locate also finds a copy of it in
	// the working folder. "" when the name says nothing.
	named   string
	strict  bool // the client reads strict JSON: no comments
	toml    bool
	dialect dialect
	// keys are the server keys the format defines, applied or not by
	// mcplens; any other is an unknown key.
	keys []string
	// include and exclude are the keys that list the tools the client
	// keeps or withholds, "" when the format has none.
	include, exclude string
}

func (l *layout) defines(key string) bool { return slices.Contains(l.keys, key) }

// A fit is how surely a document's content says it is in a format: the
// format that fits best reads it, the earlier in formats on a tie.
type fit int

const (
	noFit    fit = iota
	plainFit     // it has the servers key several clients share
	hintFit      // a server's string uses the client's variable syntax
	keyFit       // a server has a key only this client reads
	sureFit      // a top-level key only this client writes
)

// defaults is what most clients do; a format embeds it and overrides the
// rest.
type defaults struct{}

func (defaults) fit(*node) fit { return noFit }

func (defaults) read(r *reader) error { return r.readServers() }

func (defaults) field(r *reader, raw *rawServer, m member) error { return r.field(raw, m) }

// transport: a server with a url and no command is streamable HTTP.
func (defaults) transport(raw *rawServer) (string, string, string) {
	if raw.url.set && !raw.command.set {
		return TransportHTTP, raw.url.s, ""
	}
	return TransportStdio, "", ""
}

func (defaults) nothingToStart(*rawServer) string { return nothingToStart(`"url"`) }

// nothingToStart says that a server has neither a command nor a URL, the
// client naming its URL with urlKeys.
func nothingToStart(urlKeys string) string {
	return `no "command" or ` + urlKeys + `: nothing to start`
}

// typedTransport is the transport "type" names, for the clients that read
// it, else the default one.
func typedTransport(raw *rawServer) (transport, url, blocked string) {
	switch t := raw.typ.s; {
	case t == TransportStdio, t == TransportHTTP, t == TransportSSE:
		return t, raw.url.s, ""
	case raw.typ.set:
		return TransportStdio, "", fmt.Sprintf("type %q is not one of stdio, http, sse", t)
	}
	return defaults{}.transport(raw)
}

// mcpServers returns the server objects under "mcpServers", the key most
// clients share, for a fit to look into.
func mcpServers(root *node) []*node {
	m := root.get("mcpServers")
	if m == nil {
		return nil
	}
	var out []*node
	for _, s := range m.val.members {
		if s.val.kind == objectNode {
			out = append(out, s.val)
		}
	}
	return out
}

// usesKey reports whether a server under "mcpServers" has one of keys.
func usesKey(root *node, keys ...string) bool {
	return slices.ContainsFunc(mcpServers(root), func(s *node) bool {
		return slices.ContainsFunc(s.members, func(m member) bool { return slices.Contains(keys, m.key) })
	})
}

// mentions reports whether any string in n contains s.
func mentions(n *node, s string) bool {
	switch n.kind {
	case stringNode:
		return strings.Contains(n.text, s)
	case arrayNode:
		return slices.ContainsFunc(n.elems, func(e *node) bool { return mentions(e, s) })
	case objectNode:
		return slices.ContainsFunc(n.members, func(m member) bool { return mentions(m.val, s) })
	}
	return false
}
