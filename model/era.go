package model

import (
	"slices"
	"time"
)

// An Era is how a client speaks one protocol revision: whether it first
// probes with server/discover (the stateless revisions, from 2026-07-28,
// which carry the client's version, identity and capabilities in each
// request's _meta), what it asks for with initialize when it does not, or
// when the probe fails, and which revisions it accepts in a server's answer.
type Era struct {
	// Version is the revision the client asks for.
	Version string
	// Discover says the client probes with server/discover before anything
	// else, and stays stateless when the server answers.
	Discover bool
	// Probe bounds the server/discover probe: a server that ignores unknown
	// methods never answers it, and the client falls back after Probe.
	Probe time.Duration
	// Initialize is the revision asked for with initialize: Version for a
	// handshake era, the fallback of a stateless one.
	Initialize string
	// Accepts lists the revisions the client goes on with when a server
	// answers initialize with another than it asked for, newest first; a
	// server answering any other fails the connect, as it fails the client.
	Accepts []string
}

// Revisions mcplens knows, newest first.
const (
	Revision20260728 = "2026-07-28"
	Revision20251125 = "2025-11-25"
	Revision20250618 = "2025-06-18"
	Revision20250326 = "2025-03-26"
	Revision20241105 = "2024-11-05"
)

// discoverProbe bounds a stateless client's server/discover probe. The SDK
// default is 5s, which a server ignoring unknown methods turned into a 5s
// stall per connect; a server that answers at all (a result, or -32601
// from a handshake-era server) answers within milliseconds once it reads
// its input, so a short bound costs nothing there and caps the stall.
const discoverProbe = time.Second

// eras is the one table of the eras profiles speak: what a client asking
// for each revision sends first and what it settles for. The handshake
// eras accept the revision asked and the older ones (the MCP SDKs accept
// any revision they support, and a server answers one no newer than asked);
// the stateless era falls back to initialize at the newest handshake
// revision, as the SDKs (mcp-go among them) do.
var eras = []Era{
	{
		Version: Revision20260728, Discover: true, Probe: discoverProbe, Initialize: Revision20251125,
		Accepts: []string{Revision20251125, Revision20250618, Revision20250326, Revision20241105},
	},
	{
		Version: Revision20251125, Initialize: Revision20251125,
		Accepts: []string{Revision20251125, Revision20250618, Revision20250326, Revision20241105},
	},
	{
		Version: Revision20250618, Initialize: Revision20250618,
		Accepts: []string{Revision20250618, Revision20250326, Revision20241105},
	},
}

// Eras lists the eras a profile may speak, newest first.
func Eras() []Era {
	return slices.Clone(eras)
}

// EraOf returns the era of a protocol revision. A revision not in the
// table is stateless from 2026-07-28 on (revisions are dates, and sort),
// probing and falling back as that revision does; an older one is asked
// for with initialize and accepted back as it is.
func EraOf(version string) Era {
	for _, e := range eras {
		if e.Version == version {
			return e
		}
	}
	if Stateless(version) {
		e := eras[0]
		e.Version = version
		return e
	}
	return Era{Version: version, Initialize: version, Accepts: []string{version}}
}

// Stateless reports whether a protocol revision is one of the stateless
// revisions (2026-07-28 on): server/discover rather than initialize,
// identity in every request's _meta, tasks by the extension.
func Stateless(revision string) bool { return revision >= Revision20260728 }

// Era is the era of the handshake's protocol revision.
func (h Handshake) Era() Era {
	return EraOf(h.ProtocolVersion)
}

// Settles reports whether a client of the era goes on with a server that
// answered the revision got: a stateless revision no newer than asked
// (reached with server/discover, which may negotiate down), or one the era
// accepts from initialize.
func (e Era) Settles(got string) bool {
	stateless := Stateless(got) && got <= e.Version
	return e.Discover && stateless || slices.Contains(e.Accepts, got)
}
