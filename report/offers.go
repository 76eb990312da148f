package report

import (
	"bufio"
	"fmt"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// What a server offers beside its tools, in the report: its resources,
// templates and prompts, each prompt with the slash command the policy's
// client makes of it (surface.Assessment.Prompts).

// A Resource is one listed resource.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
	// Size is the size the server gave, absent when it gave none.
	Size *int64 `json:"size,omitempty"`
}

// A Template is one listed resource template.
type Template struct {
	URITemplate string `json:"uri_template"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
}

// A Prompt is one listed prompt and the slash command it becomes.
type Prompt struct {
	Index int `json:"index"`
	// Name is the prompt's name; "" for a row without a usable one.
	Name        string     `json:"name"`
	NameProblem string     `json:"name_problem,omitempty"`
	Description string     `json:"description,omitempty"`
	Arguments   []Argument `json:"arguments"`
	// Command is the slash command, "/" included, or for a lost prompt
	// the one it would have had ("" when the client formed none).
	Command string `json:"command"`
	// Outcome is "registered", "renamed", "dropped" or "displaced".
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	By      string `json:"by,omitempty"`
}

// An Argument is one argument of a prompt.
type Argument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// buildOffers fills s with what server si offers beside its tools.
func buildOffers(a *surface.Assessment, si int, s *Server) {
	st := &a.Snapshot.Servers[si]
	o := st.Offers
	s.Notes = append(s.Notes, o.Notes...)
	for _, r := range o.Resources {
		res := Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType}
		if r.Size >= 0 {
			size := r.Size
			res.Size = &size
		}
		s.Resources = append(s.Resources, res)
	}
	for _, t := range o.Templates {
		s.Templates = append(s.Templates, Template{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType})
	}
	res := a.PromptResult(si)
	for i, p := range o.Prompts {
		row := Prompt{Index: i, Name: p.Name, NameProblem: p.NameProblem, Description: p.Description, Arguments: []Argument{}}
		for _, arg := range p.Arguments {
			row.Arguments = append(row.Arguments, Argument{Name: arg.Name, Description: arg.Description, Required: arg.Required})
		}
		if res != nil && i < len(res.Outcomes) {
			oc := res.Outcomes[i]
			row.Outcome, row.Reason, row.By = oc.Kind.String(), oc.Reason, oc.By
			if oc.Name != "" {
				row.Command = "/" + oc.Name
			}
		}
		s.Prompts = append(s.Prompts, row)
	}
}

// promptCollisions are the slash commands more than one prompt wanted.
func promptCollisions(reg *model.Registry) []Collision {
	var out []Collision
	for _, c := range reg.Collisions() {
		col := Collision{Name: "/" + c.Name, Class: c.Class.String()}
		for j, o := range c.Rows {
			col.Claims = append(col.Claims, Claim{Server: o.Server, Wire: o.Wire, Outcome: o.Kind.String(), Won: j == c.Winner})
		}
		out = append(out, col)
	}
	return out
}

// writeTextOffers writes a server's resources, templates and prompts, one
// line each, text sanitized as every server string is.
func writeTextOffers(bw *bufio.Writer, s Server) {
	san := model.Sanitize
	if len(s.Resources)+len(s.Templates)+len(s.Prompts) > 0 {
		fmt.Fprintf(bw, "  offers: %s, %s, %s\n", plural(len(s.Resources), "resource"), plural(len(s.Templates), "template"), plural(len(s.Prompts), "prompt"))
	}
	for _, r := range s.Resources {
		fmt.Fprintf(bw, "    resource %s  %s %s\n", san(r.URI), san(r.Name), san(r.MIMEType))
	}
	for _, t := range s.Templates {
		fmt.Fprintf(bw, "    template %s  %s\n", san(t.URITemplate), san(t.Name))
	}
	for _, p := range s.Prompts {
		fmt.Fprintf(bw, "    prompt   %s → %s  %s", orDash(san(p.Name)), orDash(san(p.Command)), p.Outcome)
		if p.Reason != "" {
			fmt.Fprintf(bw, ": %s", san(p.Reason))
		}
		bw.WriteString("\n")
	}
}

// mdOffers are a server's resources, templates and prompts as Markdown
// list items.
func mdOffers(s Server) []string {
	var items []string
	for _, r := range s.Resources {
		items = append(items, "resource "+mdCode(r.URI)+" "+mdText(r.Name)+" "+mdText(r.MIMEType))
	}
	for _, t := range s.Templates {
		items = append(items, "template "+mdCode(t.URITemplate)+" "+mdText(t.Name))
	}
	for _, p := range s.Prompts {
		item := "prompt " + mdCode(p.Name) + " → " + mdCode(orDash(p.Command)) + " " + p.Outcome
		if p.Reason != "" {
			item += ": " + mdText(p.Reason)
		}
		items = append(items, item)
	}
	return items
}
