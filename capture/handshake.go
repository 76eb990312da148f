package capture

// What a recording shows of a handshake: the client's initialize (or a
// stateless revision's server/discover, whose _meta says the same), and
// the server's answer to server/discover.

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// clientInfo is a client's clientInfo as sent.
type clientInfo struct{ Name, Version, Title string }

// initialized keeps what a client's handshake (initialize, or a stateless
// revision's server/discover) said of it: who, at what revision, with
// what capabilities.
func (sv *Server) initialized(info clientInfo, protocol string, caps json.RawMessage) {
	var members map[string]json.RawMessage
	_ = json.Unmarshal(caps, &members)
	sv.Client = model.ClientInfo{Name: info.Name, Version: info.Version, Title: info.Title}
	sv.ClientProtocol, sv.Initialized = protocol, true
	sv.Capabilities = capabilityNames(members)
	sv.HostsApps = model.DeclaresApps(caps)
}

// capabilityNames lists the capabilities a client declared, each with the
// members it set: "roots(listChanged)", "sampling", ...
func capabilityNames(caps map[string]json.RawMessage) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(caps)) {
		var flags map[string]json.RawMessage
		_ = json.Unmarshal(caps[name], &flags)
		if len(flags) > 0 {
			name += "(" + strings.Join(slices.Sorted(maps.Keys(flags)), ",") + ")"
		}
		out = append(out, name)
	}
	return out
}

// discovered reads a server/discover answer: the server speaks version,
// the revision the client asked for, when it lists it; its name and
// facts are in the result and its _meta. It reports whether the server
// settled on version.
func discovered(sv *Server, version string, result json.RawMessage) bool {
	var r struct {
		Supported    []string        `json:"supportedVersions"`
		Capabilities json.RawMessage `json:"capabilities"`
		Instructions string          `json:"instructions"`
		Meta         struct {
			ServerInfo struct {
				Name, Version, Title string
				WebsiteURL           string `json:"websiteUrl"`
			} `json:"io.modelcontextprotocol/serverInfo"`
		} `json:"_meta"`
	}
	if json.Unmarshal(result, &r) != nil || !slices.Contains(r.Supported, version) {
		return false
	}
	info := r.Meta.ServerInfo
	sv.Protocol, sv.ServerName, sv.ServerVersion = version, info.Name, info.Version
	sv.Facts, _ = mcpsession.FactsOf(r.Capabilities, r.Instructions, info.Title, info.WebsiteURL)
	return true
}
