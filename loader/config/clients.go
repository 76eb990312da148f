package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

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

// inputs reads VS Code's top-level "inputs": the values ${input:ID} asks
// the user for.
func (r *reader) inputs() error {
	root := r.d.root
	if root.kind != objectNode {
		return nil // serversMember reports it
	}
	m := root.get("inputs")
	if m == nil || m.val.kind == nullNode {
		return nil
	}
	if m.val.kind != arrayNode {
		return r.d.errorAt(m.val.off, fmt.Sprintf(`"inputs" is %s, want an array`, m.val.describe()))
	}
	r.exp.declared = map[string]Input{}
	for i, e := range m.val.elems {
		if e.kind != objectNode {
			return r.d.errorAt(e.off, fmt.Sprintf("inputs[%d] is %s, want an object", i, e.describe()))
		}
		var in Input
		for _, f := range e.members {
			switch {
			case f.key == "id" && f.val.kind == stringNode:
				in.ID = f.val.text
			case f.key == "type" && f.val.kind == stringNode:
				in.Type = f.val.text
			case f.key == "description" && f.val.kind == stringNode:
				in.Description = f.val.text
			case f.key == "password" && f.val.kind == boolNode:
				in.Password = f.val.text == "true"
			}
		}
		if in.ID == "" {
			return r.d.errorAt(e.off, fmt.Sprintf(`inputs[%d] has no "id"`, i))
		}
		r.cfg.Inputs = append(r.cfg.Inputs, in)
		r.exp.declared[in.ID] = in
	}
	return nil
}

// geminiServerLists applies Gemini CLI's "mcp": {"allowed": [...],
// "excluded": [...]}: a server not allowed, or excluded, is not started by
// the client; mcplens lists it with every tool filtered.
func (r *reader) geminiServerLists() error {
	mcp := r.d.root.get("mcp")
	if mcp == nil || mcp.val.kind != objectNode {
		return nil
	}
	list := func(key string) ([]string, bool, error) {
		m := mcp.val.get(key)
		if m == nil {
			return nil, false, nil
		}
		names, err := r.names("mcp", *m)
		return names, true, err
	}
	allowed, hasAllowed, err := list("allowed")
	if err != nil {
		return err
	}
	excluded, _, err := list("excluded")
	if err != nil {
		return err
	}
	for i := range r.cfg.Servers {
		s := &r.cfg.Servers[i]
		why := ""
		switch {
		case slices.Contains(excluded, s.Label):
			why = "listed in mcp.excluded"
		case hasAllowed && !slices.Contains(allowed, s.Label):
			why = "not listed in mcp.allowed"
		}
		if why != "" && !s.Disabled {
			s.Disabled = true
			s.Findings = append(s.Findings, "disabled ("+why+"): every tool is shown filtered")
		}
	}
	return nil
}
