package surface

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// A Sighting is the servers of one config as they showed themselves to one
// handshake: the snapshot, and the clients (profile keys) that send that
// handshake and so share it.
type Sighting struct {
	Clients []string
	Snap    *Snapshot
}

// A GatedTool is a tool a server advertised to some clients and not to
// others: servers change what they list by clientInfo, capabilities and
// headers.
type GatedTool struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// To and NotTo are the clients on each side, in the order of the
	// sightings.
	To    []string `json:"advertised_to"`
	NotTo []string `json:"not_advertised_to"`
	// AppOnly says the tool is for its app only (MCP Apps): To are then
	// the clients whose models see it, NotTo those that keep it from
	// their models (they host apps) or were not advertised it.
	AppOnly bool `json:"app_only,omitempty"`
}

// Evidence says it in a finding's words.
func (g GatedTool) Evidence() string {
	if g.AppOnly {
		to := strings.Join(g.To, ", ")
		if to == "" {
			to = "none"
		}
		return fmt.Sprintf("tool %q on %s is for its app only: the models of %s see it, those of %s do not (they host apps, or were not advertised it)",
			g.Tool, g.Server, to, strings.Join(g.NotTo, ", "))
	}
	return fmt.Sprintf("tool %q on %s is advertised to %s but not to %s",
		g.Tool, g.Server, strings.Join(g.To, ", "), strings.Join(g.NotTo, ", "))
}

// Gated compares the sightings of the same config server by server: every
// wire name some of them were listed and others were not is a GatedTool. A
// server is compared only among the sightings that listed it (one that
// failed for a client says nothing of what it hides). Servers come in the
// config's order, a server's tools in the order they were first seen.
func Gated(sightings []Sighting) []GatedTool {
	if len(sightings) < 2 {
		return nil
	}
	var out []GatedTool
	for si := range sightings[0].Snap.Servers {
		label := sightings[0].Snap.Servers[si].Label()
		if i, ok := sightings[0].Snap.Index(label); !ok || i != si {
			continue // a label declared twice: compared once
		}
		out = append(out, gatedOn(label, sightings)...)
	}
	return out
}

// gatedOn is Gated for the server labelled label.
func gatedOn(label string, sightings []Sighting) []GatedTool {
	var (
		listed []int    // the sightings that listed the server
		order  []string // wire names, first seen first
		seenBy = map[string][]bool{}
		hidden = map[string][]bool{} // advertised, but kept from the model
	)
	for i, s := range sightings {
		si, ok := s.Snap.Index(label)
		if !ok || !s.Snap.Servers[si].Listed {
			continue
		}
		listed = append(listed, i)
		for _, t := range s.Snap.Servers[si].Tools {
			if t.Name == "" {
				continue
			}
			if seenBy[t.Name] == nil {
				seenBy[t.Name] = make([]bool, len(sightings))
				order = append(order, t.Name)
			}
			seenBy[t.Name][i] = true
			if s.Snap.Servers[si].HostsApps && !t.App.ForModel() {
				if hidden[t.Name] == nil {
					hidden[t.Name] = make([]bool, len(sightings))
				}
				hidden[t.Name][i] = true
			}
		}
	}
	var out []GatedTool
	for _, name := range order {
		g := GatedTool{Server: label, Tool: name, AppOnly: hidden[name] != nil}
		for _, i := range listed {
			if seenBy[name][i] && (hidden[name] == nil || !hidden[name][i]) {
				g.To = append(g.To, sightings[i].Clients...)
			} else {
				g.NotTo = append(g.NotTo, sightings[i].Clients...)
			}
		}
		if len(g.NotTo) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// gatedFindings are the findings of gated tools: warnings, since each
// client's surface is whole in itself, yet differs from another's (an
// app-only tool's too: the models differ, as the extension means).
func gatedFindings(gated []GatedTool) []model.Finding {
	out := make([]model.Finding, len(gated))
	for i, g := range gated {
		out[i] = model.Finding{Severity: model.Warn, Kind: "gated-tool", Server: g.Server, Tool: g.Tool, Evidence: g.Evidence()}
	}
	return out
}
