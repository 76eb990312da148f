package surface

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// PromptCatalogues returns the prompts the listed servers offer, in
// declaration order: what a prompt policy is applied to.
func (s *Snapshot) PromptCatalogues() []model.PromptCatalogue {
	cats := make([]model.PromptCatalogue, 0, len(s.Servers))
	for i := range s.Servers {
		if sv := &s.Servers[i]; sv.Listed {
			cats = append(cats, model.PromptCatalogue{Server: sv.Label(), Prompts: sv.Offers.Prompts})
		}
	}
	return cats
}

// PromptResult returns server si's part of the prompt registry, nil when
// it was not listed.
func (a *Assessment) PromptResult(si int) *model.ServerResult {
	if a.Prompts == nil || si < 0 || si >= len(a.Snapshot.Servers) {
		return nil
	}
	r, _ := a.Prompts.Server(a.Snapshot.Servers[si].Label())
	return r
}

// promptFindings adds the findings of server si's prompts under the
// policy's client: a prompt whose slash command another server's prompt
// took or displaced ("prompt-lost"), one renamed because another server
// offers its name ("prompt-renamed"), and the listings of its offers that
// failed ("note"). A client that offers no prompt as a command loses them
// all alike: its rows say so, with no finding each.
func (a *Assessment) promptFindings(si int, fs *findings) {
	sv := &a.Snapshot.Servers[si]
	label := sv.Label()
	for _, n := range sv.Offers.Notes {
		fs.add(si, -1, Finding{Severity: Warning, Kind: "note", Server: label, Evidence: a.Snapshot.Redact.Text(n)})
	}
	res := a.PromptResult(si)
	if res == nil {
		return
	}
	for _, o := range res.Outcomes {
		switch {
		case !o.Live() && (o.By != "" || o.Kind == model.Displaced):
			fs.add(si, -1, Finding{Severity: Warning, Kind: "prompt-lost", Server: label, Evidence: promptEvidence(o, a.Prompts.Policy)})
		case o.Kind == model.Renamed && o.By != "":
			fs.add(si, -1, Finding{Severity: Warning, Kind: "prompt-renamed", Server: label, Evidence: promptEvidence(o, a.Prompts.Policy)})
		}
	}
}

// promptEvidence says what happened to a prompt's command.
func promptEvidence(o model.Outcome, client string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "prompt %q on %s %s under %s", o.Wire, o.Server, o.Kind, client)
	if o.Name != "" {
		fmt.Fprintf(&b, " (as /%s)", o.Name)
	}
	if o.Reason != "" {
		b.WriteString(": " + o.Reason)
	}
	return b.String()
}
