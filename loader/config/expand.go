package config

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// A dialect is how one client expands variables in its config's strings.
type dialect int

const (
	// noVars: strings are taken as written (Claude Desktop, Codex, Zed).
	noVars dialect = iota
	// shellVars: ${VAR} and ${VAR:-default}, the default used when VAR is
	// unset (Claude Code).
	shellVars
	// editorVars: ${env:VAR}, ${userHome}, ${workspaceFolder},
	// ${workspaceFolderBasename}, ${pathSeparator} and ${/}; an unset
	// ${env:VAR} becomes "" (Cursor, Windsurf).
	editorVars
	// vscodeVars: editorVars plus ${input:ID}, answered from the file's
	// "inputs" (VS Code).
	vscodeVars
	// dollarVars: $VAR and ${VAR}; an unset variable stays as written
	// (Gemini CLI).
	dollarVars
)

// An expander resolves the variables of one config's strings.
type expander struct {
	dialect   dialect
	lookupEnv func(string) (string, bool)
	home      string
	workspace string
	// inputs holds the answers to ${input:ID}; declared the file's inputs.
	inputs   map[string]string
	declared map[string]Input
	// expanded collects the secret values that environment variables and
	// inputs expanded to, since the last take: the secrets a config
	// references rather than holds.
	expanded []string
}

// take returns the secret values expanded from the environment or from
// inputs since the last take.
func (e *expander) take() []string {
	if e == nil {
		return nil
	}
	v := e.expanded
	e.expanded = nil
	return v
}

// lookup is lookupEnv, noting a value found that is a secret: its
// variable's name says so (API_TOKEN, DB_PASSWORD), or it looks like a
// credential. $HOME or ${MODE} expand to what a reader needs to see.
func (e *expander) lookup(name string) (string, bool) {
	v, ok := e.lookupEnv(name)
	if ok && model.SecretEnv(name, v) {
		e.expanded = append(e.expanded, v)
	}
	return v, ok
}

// expand returns s with its variables replaced, and one problem for each
// variable that could not be (which is left as written, or as the client
// would leave it).
func (e *expander) expand(s string) (string, []string) {
	if e == nil || e.dialect == noVars || !strings.Contains(s, "$") {
		return s, nil
	}
	var out strings.Builder
	var problems []string
	for i := 0; i < len(s); {
		if s[i] != '$' {
			out.WriteByte(s[i])
			i++
			continue
		}
		v, n, problem := e.variable(s[i:])
		if n == 0 {
			out.WriteByte('$')
			i++
			continue
		}
		out.WriteString(v)
		if problem != "" {
			problems = append(problems, problem)
		}
		i += n
	}
	return out.String(), problems
}

// variable reads the variable at the start of s. It returns its value and
// the length it spans, 0 when s does not start a variable of the dialect.
func (e *expander) variable(s string) (value string, n int, problem string) {
	if strings.HasPrefix(s, "${") {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", 0, ""
		}
		return e.braced(s[2:end], s[:end+1])
	}
	if e.dialect != dollarVars {
		return "", 0, ""
	}
	n = 1
	for n < len(s) && isNameByte(s[n], n == 1) {
		n++
	}
	if n == 1 {
		return "", 0, ""
	}
	name := s[1:n]
	if v, ok := e.lookup(name); ok {
		return v, n, ""
	}
	return s[:n], n, fmt.Sprintf("$%s is not set; passed as written", name)
}

// braced resolves the inside of ${...}; whole is the variable as written.
func (e *expander) braced(inner, whole string) (string, int, string) {
	n := len(whole)
	switch e.dialect {
	case shellVars:
		name, def, hasDef := strings.Cut(inner, ":-")
		if !isName(name) {
			return "", 0, ""
		}
		if v, ok := e.lookup(name); ok {
			return v, n, ""
		}
		if hasDef {
			return def, n, ""
		}
		return whole, n, fmt.Sprintf("%s is not set and has no default; passed as written", whole)
	case dollarVars:
		if !isName(inner) {
			return "", 0, ""
		}
		if v, ok := e.lookup(inner); ok {
			return v, n, ""
		}
		return whole, n, fmt.Sprintf("%s is not set; passed as written", whole)
	}

	// editorVars and vscodeVars
	kind, arg, _ := strings.Cut(inner, ":")
	switch {
	case kind == "env" && arg != "":
		if v, ok := e.lookup(arg); ok {
			return v, n, ""
		}
		return "", n, fmt.Sprintf("%s is not set; the client passes an empty string", whole)
	case inner == "userHome":
		if e.home == "" {
			return whole, n, fmt.Sprintf("%s: no home directory is known", whole)
		}
		return e.home, n, ""
	case inner == "workspaceFolder", inner == "workspaceFolderBasename":
		if e.workspace == "" {
			return whole, n, fmt.Sprintf("%s: no workspace folder is known for this file", whole)
		}
		if inner == "workspaceFolderBasename" {
			return baseName(e.workspace), n, ""
		}
		return e.workspace, n, ""
	case inner == "pathSeparator", inner == "/":
		return "/", n, ""
	case kind == "input" && e.dialect == vscodeVars:
		if v, ok := e.inputs[arg]; ok {
			if e.declared[arg].Password || model.SecretEnv(arg, v) {
				e.expanded = append(e.expanded, v)
			}
			return v, n, ""
		}
		in, ok := e.declared[arg]
		if !ok {
			return whole, n, fmt.Sprintf("%s: no input %q is declared in \"inputs\"", whole, arg)
		}
		what := in.Description
		if what == "" {
			what = in.ID
		}
		return whole, n, fmt.Sprintf("%s (%s) needs an answer, which only an interactive session can give", whole, what)
	}
	return whole, n, fmt.Sprintf("%s is not a variable mcplens can resolve; passed as written", whole)
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i], i == 0) {
			return false
		}
	}
	return true
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
