package surface

import (
	"fmt"
	"slices"

	"github.com/mcplens/mcplens/model"
)

// A Severity grades a finding. A run fails when it finds something at or
// above the level it was told to fail on.
type Severity int

const (
	// Info never fails a run: context, such as lock changes being accepted
	// by --update-lock.
	Info Severity = iota
	// Warning: accepted today, or advice broken (a provider's documented
	// limit, a finding of warn severity, a note on a server).
	Warning
	// Error: a server failed, a tool was lost (dropped or displaced), a
	// registered name fails a selected provider, a serious finding, or a
	// server's tools differ from the lock.
	Error
)

// String returns the level as reports spell it.
func (l Severity) String() string {
	switch l {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(l))
}

// MarshalText writes the level as its name in JSON.
func (l Severity) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name, so a report reads back.
func (l *Severity) UnmarshalText(b []byte) error {
	for _, v := range []Severity{Info, Warning, Error} {
		if string(b) == v.String() {
			*l = v
			return nil
		}
	}
	return fmt.Errorf("reading report: unknown level %q", b)
}

// severityOf is the level of a model finding of severity s.
func severityOf(s model.Severity) Severity {
	if s == model.Fail {
		return Error
	}
	return Warning
}

// A Finding is one thing worth a look, with its evidence.
type Finding struct {
	Severity Severity `json:"level"` // the JSON report's key, kept
	// Kind is "server-failed", "policy-failed", "tool-lost", "provider",
	// "note", "lock", "config", "protocol", "gated-tool", "prompt-lost",
	// "prompt-renamed" (prompts.go), "output-schema" (a call's result:
	// OutputFindings), or one of the model's finding
	// kinds ("lookalike", "cross-reference", "invisible-text",
	// "control-text", "wire-name", and MCP Apps' "app-meta",
	// "app-resource", "app-csp", "app-permission"; apps.go's "app-only").
	Kind   string `json:"kind"`
	Server string `json:"server"`
	// Tool is a wire name, or "" for a server-level finding.
	Tool     string `json:"tool"`
	Evidence string `json:"evidence"`
}

// findings gathers findings with the position they sort by: server (its
// index in the snapshot; after the last for none), then row (-1 for the
// server itself), then the order they were added.
type findings struct{ list []positioned }

type positioned struct {
	f                Finding
	server, row, seq int
}

func (fs *findings) add(server, row int, f Finding) {
	fs.list = append(fs.list, positioned{f: f, server: server, row: row, seq: len(fs.list)})
}

func (fs *findings) sorted() []Finding {
	slices.SortStableFunc(fs.list, func(a, b positioned) int {
		if a.server != b.server {
			return a.server - b.server
		}
		if a.row != b.row {
			return a.row - b.row
		}
		return a.seq - b.seq
	})
	out := make([]Finding, len(fs.list))
	for i, p := range fs.list {
		out[i] = p.f
	}
	return out
}

// Observed returns the findings of snap under any policy: what the listed
// servers' tools give away (model.Findings), then, server by server, what
// its config says it should not (ConfigFinding) and how it broke the
// protocol (the loader's "protocol" findings), then what the config file as
// a whole says (on no server). It is the costly part of the findings of an
// Assessment, and the same for every policy. Evidence is masked: the
// config's secrets in the tools' text, and credential syntax too in the
// config's and the protocol's messages.
func Observed(snap *Snapshot) []model.Finding {
	red := snap.Redact
	fs := model.Findings(snap.Catalogues())
	if red.Longest() > 0 {
		// Tool text quoted as it came: only the config's own values.
		for i := range fs {
			fs[i].Evidence = red.Values(fs[i].Evidence)
		}
	}
	for i := range snap.Servers {
		if s := &snap.Servers[i]; s.Listed {
			for _, f := range model.AppFindings(s.Label(), s.Tools, s.Offers.Resources) {
				f.Evidence = red.Values(f.Evidence)
				fs = append(fs, f)
			}
		}
	}
	for _, s := range snap.Servers {
		// Messages that may quote the config or the server's output.
		for _, c := range s.Spec.Findings {
			fs = append(fs, ConfigFinding(s.Label(), red.Text(c)))
		}
		for _, f := range s.Faults {
			f.Evidence = red.Text(f.Evidence)
			fs = append(fs, f)
		}
	}
	for _, c := range snap.File {
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
