package report

import (
	"github.com/mcplens/mcplens/model"
)

// Findings is the finding list of a surface: what the listed servers'
// tools give away (model.Findings), then, server by server, what its
// config says it should not (ConfigFinding) and how it broke the protocol
// (the loader's "protocol" findings). The interface's findings view shows
// exactly this list and every report lists it, so the two never disagree.
// Evidence is masked by red (credential syntax only when red is nil).
func Findings(servers []ServerState, red *model.Redactor) []model.Finding {
	var cats []model.Catalogue
	for _, s := range servers {
		if s.Listed {
			cats = append(cats, model.Catalogue{Server: s.Label, Tools: s.Tools})
		}
	}
	fs := model.Findings(cats)
	for _, s := range servers {
		for _, c := range s.Config {
			fs = append(fs, ConfigFinding(s.Label, c))
		}
		fs = append(fs, s.Faults...)
	}
	for i := range fs {
		fs[i].Evidence = red.Text(fs[i].Evidence)
	}
	return fs
}

// ConfigFinding is a finding of the config on the server labelled label
// (an unknown key, a variable that is not set): a warning, since the
// client reading the config goes on without it.
func ConfigFinding(label, evidence string) model.Finding {
	return model.Finding{Severity: model.Warn, Kind: "config", Server: label, Evidence: evidence}
}
