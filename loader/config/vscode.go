package config

import (
	"fmt"
)

// vscode is VS Code's .vscode/mcp.json: JSONC under "servers", editor
// variables plus ${input:ID}, answered from the file's "inputs".
type vscode struct{ defaults }

var vscodeLayout = layout{
	Format:     Format{"vscode", "VS Code", ".vscode/mcp.json"},
	serversKey: "servers", project: ".vscode/mcp.json", dialect: vscodeVars,
	keys: []string{"type", "command", "args", "env", "envFile", "url", "headers", "dev"},
}

func (vscode) layout() *layout { return &vscodeLayout }

func (vscode) claims(base, dir string) bool {
	return base == "mcp.json" && (dir == ".vscode" || dir == "User")
}

func (vscode) userFiles(d userDirs) []string {
	return []string{d.join(d.appData, "Code", "User", "mcp.json")}
}

func (vscode) fit(root *node) fit {
	if root.get("servers") != nil && root.get("mcpServers") == nil || root.get("inputs") != nil {
		return sureFit
	}
	return noFit
}

func (vscode) read(r *reader) error {
	if err := r.inputs(); err != nil {
		return err
	}
	return r.readServers()
}

func (vscode) transport(raw *rawServer) (string, string, string) { return typedTransport(raw) }

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
