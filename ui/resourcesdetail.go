package ui

import (
	"fmt"
	"strings"
)

// The detail pane of the resources & prompts view, and what it says of a
// resource's subscription and updates.

// detail is what the detail pane shows of the line under the cursor: the
// whole description, a prompt's arguments and outcome, the row as listed.
func (v *offersView) detail() []string {
	lines := v.lines()
	c := v.e.c
	if v.sc.cursor >= len(lines) {
		return []string{c.styles.Muted.Render("nothing selected")}
	}
	at := lines[v.sc.cursor]
	sv := &v.e.live.snap.Servers[at.server]
	o := sv.Offers
	var out []string
	add := func(label, s string) {
		if s != "" {
			out = append(out, c.styles.Muted.Render(label+": ")+c.quote(firstLine(s, 400)))
		}
	}
	var raw []byte
	switch at.kind {
	case offerServer:
		out = append(out, c.styles.Section.Render(c.quote(sv.Label())))
		if o.Subscribe {
			out = append(out, "offers resource subscriptions (u)")
		}
		if o.Completions {
			out = append(out, "offers completions (tab in a form)")
		}
		for _, n := range o.Notes {
			out = append(out, c.styles.WarnText.Render(c.text(n)))
		}
		return out
	case offerResource:
		r := o.Resources[at.i]
		out = append(out, c.styles.Section.Render(c.quote(sv.Label()+" · "+offerName(r.Title, r.Name, r.URI))))
		add("uri", r.URI)
		add("name", r.Name)
		add("title", r.Title)
		add("description", r.Description)
		if r.Size >= 0 {
			add("size", fmt.Sprintf("%d bytes", r.Size))
		}
		if b, ok := v.backend(); ok {
			add("updates", lastUpdate(b, sv.Label(), r.URI))
		}
		raw = r.Raw
	case offerTemplate:
		t := o.Templates[at.i]
		out = append(out, c.styles.Section.Render(c.quote(sv.Label()+" · "+offerName(t.Title, t.Name, t.URITemplate))))
		add("uri template", t.URITemplate)
		add("name", t.Name)
		add("description", t.Description)
		raw = t.Raw
	case offerPrompt:
		p := o.Prompts[at.i]
		out = append(out, c.styles.Section.Render(c.quote(sv.Label()+" · prompt "+p.Name)))
		if res := v.e.live.a.PromptResult(at.server); res != nil && at.i < len(res.Outcomes) {
			oc := res.Outcomes[at.i]
			command := oc.Kind.String()
			if oc.Name != "" {
				command = "/" + oc.Name + "  " + command
			}
			out = append(out, c.styles.Muted.Render("under "+v.e.activePolicy().Name+": ")+c.outcomeStyle(oc.Kind).Render(c.quote(command)))
			add("why", oc.Reason)
		}
		add("description", p.Description)
		for _, a := range p.Arguments {
			req := ""
			if a.Required {
				req = "*"
			}
			add("argument "+a.Name+req, dash(a.Description))
		}
		raw = p.Raw
	}
	add("as listed", cut(c, raw, 400))
	return out
}

// lastUpdate says how many notifications/resources/updated arrived for
// uri and when the last did, "" when none did.
func lastUpdate(b offersBackend, server, uri string) string {
	ups, _ := b.ResourceUpdates(server)
	n, last := 0, ""
	for _, u := range ups {
		if u.URI == uri {
			n, last = n+1, u.At.Format("15:04:05")
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d, the last at %s", n, last)
}

// updatesNote says whether mcplens is subscribed to uri and how many
// updates of it arrived.
func updatesNote(b offersBackend, server, uri string) string {
	var note []string
	if b.Subscribed(server, uri) {
		note = append(note, "subscribed")
	}
	ups, _ := b.ResourceUpdates(server)
	n := 0
	for _, u := range ups {
		if u.URI == uri {
			n++
		}
	}
	if n > 0 {
		note = append(note, fmt.Sprintf("%d updates", n))
	}
	if len(note) == 0 {
		return ""
	}
	return " · " + strings.Join(note, " · ")
}
