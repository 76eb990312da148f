package model

import "fmt"

// An observed call is a tools/call a tap saw reach a server: the server it
// reached and the wire name it carried. The registry a policy builds
// predicts where each registered name's calls go; an observed call either
// matches that prediction (some registered name routes to that server's
// wire name) or contradicts it.

// A CallVerdict says whether an observed call matches the route the
// registry predicts.
type CallVerdict struct {
	// Matches reports whether a registered name routes to the server's
	// wire name.
	Matches bool
	// Name is the registered name that routes there (Matches), or the
	// registered name the registry gives the wire name elsewhere.
	Name string
	// Server is, for a contradiction, the server the registry routes the
	// wire name (as a registered name, else as a wire name) to; "" when it
	// routes it nowhere.
	Server string
	// Why says so in words.
	Why string
}

// JudgeCall judges a call that reached server carrying wire, against reg.
func JudgeCall(reg *Registry, server, wire string) CallVerdict {
	if reg == nil {
		return CallVerdict{Why: "no registry: nothing was listed"}
	}
	var named, wired *Route // routes elsewhere: registered as wire, or carrying it
	for i := range reg.Routes {
		r := &reg.Routes[i]
		switch {
		case r.Server == server && r.Wire == wire:
			return CallVerdict{Matches: true, Name: r.Name, Why: fmt.Sprintf("%s routes to %s's %s", r.Name, server, wire)}
		case r.Server == server:
		case r.Name == wire && named == nil:
			named = r
		case r.Wire == wire && wired == nil:
			wired = r
		}
	}
	elsewhere := named
	if elsewhere == nil {
		elsewhere = wired
	}
	if elsewhere != nil {
		return CallVerdict{Name: elsewhere.Name, Server: elsewhere.Server,
			Why: fmt.Sprintf("reached %s, but the registry routes %s to %s's %s", server, elsewhere.Name, elsewhere.Server, elsewhere.Wire)}
	}
	if res, ok := reg.Server(server); ok {
		for _, o := range res.Outcomes {
			if o.Wire == wire && !o.Live() {
				return CallVerdict{Why: fmt.Sprintf("reached %s, but the registry has no route to its %s: %s (%s)", server, wire, o.Kind, o.Reason)}
			}
		}
	}
	return CallVerdict{Why: fmt.Sprintf("reached %s, which did not list %s", server, wire)}
}

// ClientByInfo returns the client profile whose handshake sends the
// clientInfo name, the version sent when one is profiled, else the newest;
// ok is false when no profile sends that name.
func ClientByInfo(info ClientInfo) (Client, bool) {
	var found Client
	ok := false
	for _, c := range Clients() {
		ci := c.Handshake.ClientInfo
		if ci.Name != info.Name || c.Neutral() {
			continue
		}
		found, ok = c, true // versions oldest first: the last is the newest
		if ci.Version == info.Version {
			break
		}
	}
	return found, ok
}
