package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// claudeCode is Claude Code's .mcp.json and ~/.claude.json: shell
// variables (${VAR:-default}), a transport "type", and in ~/.claude.json
// the servers of each project besides the user's.
type claudeCode struct{ defaults }

var claudeCodeLayout = layout{
	Format:     Format{"claude-code", "Claude Code", ".mcp.json, ~/.claude.json"},
	serversKey: "mcpServers", project: ".mcp.json", strict: true, dialect: shellVars,
	keys: []string{"type", "command", "args", "env", "url", "headers", "oauth"},
}

func (claudeCode) layout() *layout { return &claudeCodeLayout }

func (claudeCode) claims(base, dir string) bool { return base == ".mcp.json" || base == ".claude.json" }

// fit: "mcpServers" alone is read as Claude Code's, the most common.
func (claudeCode) fit(root *node) fit {
	switch {
	case root.get("projects") != nil:
		return sureFit
	case root.get("mcpServers") != nil:
		return plainFit
	}
	return noFit
}

func (claudeCode) userFiles(d userDirs) []string {
	return []string{d.join(d.home, ".claude.json")}
}

func (claudeCode) read(r *reader) error {
	if r.d.root.kind == objectNode && r.d.root.get("projects") != nil {
		return r.claudeUser()
	}
	return r.readServers()
}

func (claudeCode) transport(raw *rawServer) (string, string, string) { return typedTransport(raw) }

// claudeUser reads ~/.claude.json: the user's servers under "mcpServers",
// then those of one project under "projects.<path>.mcpServers". A project
// server replaces a user server of the same label where it stands, as
// Claude Code's merge of the two objects does.
func (r *reader) claudeUser() error {
	root := r.d.root
	if m := root.get("mcpServers"); m != nil {
		specs, err := r.serverList(m, true)
		if err != nil {
			return err
		}
		r.cfg.Servers = specs
	}

	projects := root.get("projects")
	if projects.val.kind != objectNode {
		return r.d.errorAt(projects.val.off, fmt.Sprintf(`"projects" is %s, want an object`, projects.val.describe()))
	}
	var withServers []string
	var chosen *member
	want := r.opts.Project
	if want == "" {
		want, _ = os.Getwd()
	}
	for i := range projects.val.members {
		p := &projects.val.members[i]
		servers := p.val.get("mcpServers")
		if servers != nil && servers.val.kind == objectNode && len(servers.val.members) > 0 {
			withServers = append(withServers, fmt.Sprintf("%s (%d)", p.key, len(servers.val.members)))
		}
		if p.key == want && chosen == nil {
			chosen = p
		}
	}
	if chosen == nil && r.opts.Project != "" {
		return &Error{Path: r.d.path, Msg: fmt.Sprintf("no project %q under \"projects\" (projects with servers: %s)",
			r.opts.Project, listOrNone(withServers))}
	}
	if chosen != nil {
		r.cfg.Project = chosen.key
		if m := chosen.val.get("mcpServers"); m != nil {
			specs, err := r.serverList(m, true)
			if err != nil {
				return err
			}
			for _, s := range specs {
				i := slices.IndexFunc(r.cfg.Servers, func(u ServerSpec) bool { return u.Label == s.Label })
				if i < 0 {
					r.cfg.Servers = append(r.cfg.Servers, s)
					continue
				}
				s.Findings = append(s.Findings, fmt.Sprintf("project %s replaces the user server %q", chosen.key, s.Label))
				r.cfg.Servers[i] = s
			}
		}
	} else if len(withServers) > 0 {
		r.cfg.Findings = append(r.cfg.Findings, "projects with their own servers: "+strings.Join(withServers, ", ")+
			"; add one with --project PATH")
	}
	if len(r.cfg.Servers) == 0 {
		return &Error{Path: r.d.path, Line: 1, Col: 1, Msg: fmt.Sprintf(
			"no servers: no user \"mcpServers\" and no project picked (projects with servers: %s)", listOrNone(withServers))}
	}
	return nil
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
