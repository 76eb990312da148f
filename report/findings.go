package report

import (
	"github.com/mcplens/mcplens/model"
)

// Findings is the finding list of a surface: what the listed servers'
// tools give away (model.Findings), then, server by server, what its
// config says it should not (ConfigFinding) and how it broke the protocol
// (the loader's "protocol" findings), then what the config file as a whole
// says (file: config.Config.Findings, on no server). The interface's findings view shows
// exactly this list and every report lists it, so the two never disagree.
// Evidence is masked by red: the config's secrets in the tools' text, and
// credential syntax too in the config's and the protocol's messages (nil
// red masks credential syntax only).
func Findings(file []string, servers []ServerState, red *model.Redactor) []model.Finding {
	var cats []model.Catalogue
	for _, s := range servers {
		if s.Listed {
			cats = append(cats, model.Catalogue{Server: s.Label, Tools: s.Tools})
		}
	}
	fs := model.Findings(cats)
	if red.Longest() > 0 {
		// Tool text quoted as it came: only the config's own values.
		for i := range fs {
			fs[i].Evidence = red.Values(fs[i].Evidence)
		}
	}
	for _, s := range servers {
		// Messages that may quote the config or the server's output.
		for _, c := range s.Config {
			fs = append(fs, ConfigFinding(s.Label, red.Text(c)))
		}
		for _, f := range s.Faults {
			f.Evidence = red.Text(f.Evidence)
			fs = append(fs, f)
		}
	}
	for _, c := range file {
		fs = append(fs, ConfigFinding("", red.Text(c)))
	}
	return fs
}

// ConfigFinding is a finding of the config on the server labelled label
// (an unknown key, a variable that is not set), or on the whole file when
// label is "": a warning, since the client reading the config goes on
// without it.
func ConfigFinding(label, evidence string) model.Finding {
	return model.Finding{Severity: model.Warn, Kind: "config", Server: label, Evidence: evidence}
}
