package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
)

// discover probes server/discover; it reports whether the server speaks
// the stateless revision asked for.
func (a *auditor) discover(ctx context.Context, era model.Era) bool {
	pctx, cancel := context.WithTimeout(ctx, min(a.o.Probe, max(era.Probe, 2*era.Probe)))
	defer cancel()
	mark := a.t.mark()
	a.setStateless(true, era.Version) // the probe carries the revision's headers
	m, err := a.c.call(pctx, "server/discover", map[string]any{"_meta": loader.StatelessMeta(a.o.Handshake, era.Version)})
	if err != nil || m.Error != nil {
		a.setStateless(false, "")
		return false // a handshake-era server: initialize follows
	}
	var r initializeResult
	a.fs.probe("lifecycle.version")
	if err := json.Unmarshal(m.Result, &r); err != nil || len(r.SupportedVersions) == 0 {
		a.fs.add("lifecycle.version", "server/discover", "the server/discover result lists no supportedVersions", a.t.since(mark))
		return false
	}
	if !slices.Contains(r.SupportedVersions, era.Version) {
		a.setStateless(false, "")
		return false
	}
	if i := slices.IndexFunc(r.SupportedVersions, func(v string) bool { return !revisionShape.MatchString(v) }); i >= 0 {
		a.fs.add("lifecycle.version", "server/discover", fmt.Sprintf("the server/discover result lists %q among its supportedVersions, which is no revision of the specification",
			r.SupportedVersions[i]), a.t.since(mark))
	}
	a.res.Revision, a.caps, a.stateless, a.supported = era.Version, r.Capabilities, true, r.SupportedVersions
	a.c.meta = loader.StatelessMeta(a.o.Handshake, era.Version)
	if info := jsonx.MemberFold(jsonx.MemberFold(m.Result, "_meta"), "io.modelcontextprotocol/serverInfo"); len(info) > 0 {
		a.res.ServerInfo = model.Sanitize(jsonx.String(jsonx.MemberFold(info, "name")) + " " + jsonx.String(jsonx.MemberFold(info, "version")))
	}
	a.cacheHints("server/discover", m, mark)
	a.serverInfo(m, a.t.since(mark)) // stateless.go
	// server/discover stands for initialize: its capabilities are judged
	// as initialize's are.
	a.fs.probe("lifecycle.initialize")
	switch {
	case r.Capabilities == nil:
		a.fs.add("lifecycle.initialize", "server/discover", "the server/discover result has no capabilities object", a.t.since(mark))
	default:
		if p := capabilitiesProblem(r.Capabilities); p != "" {
			a.fs.add("lifecycle.initialize", "server/discover", p, a.t.since(mark))
		}
	}
	return true
}

// capabilitiesProblem says which declared capability is not an object, ""
// when none.
func capabilitiesProblem(caps map[string]json.RawMessage) string {
	names := slices.Sorted(maps.Keys(caps))
	for _, name := range names {
		if c := caps[name]; !isObject(c) {
			return fmt.Sprintf("the capability %q is %s, not an object", model.Sanitize(name), model.JSONKind(c))
		}
	}
	return ""
}

// setStateless says whether HTTP requests carry a stateless revision's
// standard headers.
func (a *auditor) setStateless(on bool, version string) {
	if a.httpp != nil {
		a.httpp.mu.Lock()
		a.httpp.stateless, a.httpp.version = on, version
		a.httpp.mu.Unlock()
	}
}

// unknownVersionStdio starts the server again and asks for a revision
// that does not exist.
func (a *auditor) unknownVersionStdio(ctx context.Context) {
	t := &tape{server: a.spec.Label}
	p, err := startStdio(a.spec, a.o.Guard, t, a.o.Limits.Line)
	if err != nil {
		return
	}
	defer p.stop()
	a.unknownVersionOver(ctx, &client{p: p, t: t}, t)
}

// unknownVersionOver asks c's server for unknownRevision.
func (a *auditor) unknownVersionOver(ctx context.Context, c *client, t *tape) {
	pctx, cancel := a.probeCtx(ctx)
	defer cancel()
	h := a.o.Handshake
	h.ProtocolVersion = unknownRevision
	a.fs.probe("lifecycle.unknown-version")
	m, err := c.call(pctx, "initialize", loader.InitializeParams(h))
	if err != nil || m.Error != nil {
		return // refused: as the specification allows
	}
	var r initializeResult
	_ = json.Unmarshal(m.Result, &r)
	if r.ProtocolVersion == unknownRevision || !revisionShape.MatchString(r.ProtocolVersion) {
		a.fs.add("lifecycle.unknown-version", "initialize", fmt.Sprintf("asked for %s, which no server supports, the server answered protocolVersion %q", unknownRevision, r.ProtocolVersion), t.since(0))
	}
}
