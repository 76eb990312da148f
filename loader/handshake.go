package loader

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// newClient is the mcp-go client of a connection over tr: it asks for the
// handshake's protocol revision as the handshake's era does (see
// model.Era: a handshake revision is asked with initialize straight away,
// so no server/discover probe can stall the connect; the stateless one
// probes, within the era's bound, and mcp-go falls back to initialize) and
// declares exactly the handshake's capabilities: no handler is registered
// with mcp-go, which would add capabilities of its own; the conn answers
// server requests itself (answer).
func (c *conn) newClient(tr transport.Interface) *client.Client {
	h := c.asked()
	opts := []client.ClientOption{
		client.WithProtocolVersion(h.ProtocolVersion),
		client.WithClientCapabilities(capabilities(h.Capabilities)),
	}
	if era := h.Era(); era.Discover {
		opts = append(opts, client.WithDiscoverTimeout(era.Probe))
	}
	opts = append(opts, c.roundOptions(h.Capabilities)...) // rounds.go
	cl := client.NewClient(tr, opts...)
	cl.OnNotification(c.onTaskNote)
	cl.OnNotification(c.onNotification)
	cl.OnNotification(c.onLog)
	cl.OnNotification(c.onOffers)
	return cl
}

// initialize runs the handshake of the handshake's era (server/discover,
// initialize, or the one then the other); an answer the protocol refuses
// ends it at once with why (a *RefusedError), and a revision the era does
// not settle for fails it. A stateless connection's listing carries its
// _meta, and its tools/list_changed are asked for (listen).
func (c *conn) initialize(ctx context.Context, cl *client.Client) (*mcp.InitializeResult, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.monitor.await(string(mcp.MethodInitialize), cancel)
	defer c.monitor.release(string(mcp.MethodInitialize))
	h := c.asked()
	c.era.learnt = h.ProtocolVersion != c.hs.ProtocolVersion
	init, err := cl.Initialize(ctx, initializeRequest(h))
	if err != nil {
		return nil, c.initFailed(ctx, cl, h, refusal(ctx, err))
	}
	if err := settled(h, init.ProtocolVersion); err != nil {
		return nil, err
	}
	if c.hs.Era().Discover && !mcp.IsModernProtocol(init.ProtocolVersion) {
		c.s.fellBack.Store(c.fallbackKey(), true)
	}
	c.settled = c.era.settledHow(h.ProtocolVersion, init.ProtocolVersion, c.s.Protocol() != "", h.ProtocolVersion != c.hs.ProtocolVersion)
	c.lister.meta = stateless(h, init.ProtocolVersion)
	c.listen(cl)
	return init, nil
}

// asked is the handshake the connection sends: c.hs, except that a
// stateless one whose server fell back to initialize earlier in the
// session (a reconnect) asks with initialize straight away, at the
// revision the fallback asks for, rather than probing again: the era is
// learnt once per server, as a client that keeps its connections learns
// it once.
func (c *conn) asked() model.Handshake {
	h := c.hs
	if era := h.Era(); era.Discover {
		if _, ok := c.s.fellBack.Load(c.fallbackKey()); ok {
			h.ProtocolVersion = era.Initialize
		}
	}
	return h
}

// fallbackKey is the server's key in Session.fellBack.
func (c *conn) fallbackKey() string { return c.spec.Label + "\x00" + c.hs.ProtocolVersion }

// listen opens, on a stateless connection, the subscriptions/listen
// stream that carries tools/list_changed there (a connection that ran
// initialize gets it without asking); it ends with the session. The
// notifications reach onNotification like any other.
func (c *conn) listen(cl *client.Client) {
	if !mcp.IsModernProtocol(cl.ProtocolVersion()) {
		return
	}
	c.acked.Store(false) // its acknowledgement lists the tools once more (relist.go)
	_, _ = cl.ListenAsync(c.s.ctx, mcp.SubscriptionFilter{ToolsListChanged: true, PromptsListChanged: true, ResourcesListChanged: true,
		ResourceSubscriptions: c.offers.subscriptions()}, nil)
}

// settled checks the revision a server answered against the handshake's
// era: a client goes on only with a revision it speaks.
func settled(h model.Handshake, got string) error {
	if era := h.Era(); !era.Settles(got) {
		return fmt.Errorf("the server answered protocol %q, which a client asking for %s does not speak (it accepts %s)",
			got, era.Version, strings.Join(era.Accepts, ", "))
	}
	return nil
}

// stateless returns the _meta every request of a stateless connection
// carries (the revision, the client's capabilities and identity), as
// mcp-go adds it to the requests it sends, for the requests the conn
// writes itself (the lister's); nil on a connection that ran initialize.
func stateless(h model.Handshake, version string) map[string]any {
	if !mcp.IsModernProtocol(version) {
		return nil
	}
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    version,
		mcp.MetaKeyClientCapabilities: capabilities(h.Capabilities),
		mcp.MetaKeyClientInfo:         mcp.Implementation{Name: h.ClientInfo.Name, Version: h.ClientInfo.Version, Title: h.ClientInfo.Title},
	}
}

// initializeRequest is the initialize request of the handshake.
func initializeRequest(h model.Handshake) mcp.InitializeRequest {
	return mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: h.ProtocolVersion,
		ClientInfo:      mcp.Implementation{Name: h.ClientInfo.Name, Version: h.ClientInfo.Version, Title: h.ClientInfo.Title},
		Capabilities:    capabilities(h.Capabilities),
	}}
}

// capabilities is model's capabilities as mcp-go declares them.
func capabilities(m model.Capabilities) mcp.ClientCapabilities {
	var caps mcp.ClientCapabilities
	if m.Roots != nil {
		caps.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{ListChanged: m.Roots.ListChanged}
	}
	if m.Sampling {
		caps.Sampling = &mcp.SamplingCapability{}
	}
	if e := m.Elicitation; e != nil {
		caps.Elicitation = &mcp.ElicitationCapability{}
		if e.Form {
			caps.Elicitation.Form = &struct{}{}
		}
		if e.URL {
			caps.Elicitation.URL = &struct{}{}
		}
	}
	if t := m.Tasks; t != nil && (t.List || t.Cancel || t.Sampling || t.Elicitation || !t.Extension) {
		caps.Tasks = tasksCapability(*t)
	}
	if t := m.Tasks; t != nil && t.Extension {
		caps.Extensions = map[string]any{model.TasksExtensionID: map[string]any{}}
	}
	if m.Apps {
		if caps.Extensions == nil {
			caps.Extensions = map[string]any{}
		}
		caps.Extensions[model.AppsExtension] = map[string]any{"mimeTypes": []string{model.AppMIMEType}}
	}
	return caps
}

// tasksCapability is model's tasks capability as mcp-go declares it.
func tasksCapability(t model.TasksCapability) *mcp.TasksCapability {
	var caps mcp.TasksCapability
	if t.List {
		caps.List = &struct{}{}
	}
	if t.Cancel {
		caps.Cancel = &struct{}{}
	}
	if t.Sampling || t.Elicitation {
		caps.Requests = &mcp.TaskRequestsCapability{}
	}
	if t.Sampling {
		caps.Requests.Sampling = &struct {
			CreateMessage *struct{} `json:"createMessage,omitempty"`
		}{CreateMessage: &struct{}{}}
	}
	if t.Elicitation {
		caps.Requests.Elicitation = &struct {
			Create *struct{} `json:"create,omitempty"`
		}{Create: &struct{}{}}
	}
	return &caps
}

// headers returns the handshake's fixed headers overlaid with the config's
// own, which win.
func (c *conn) headers() map[string]string {
	headers := make(map[string]string, len(c.spec.Headers)+len(c.hs.Headers))
	for _, h := range c.hs.Headers {
		headers[h.Name] = h.Value
	}
	for _, h := range c.spec.Headers {
		headers[h.Name] = h.Value
	}
	return headers
}

// headerNames lists the names of the config's headers, in its order, then
// those of the handshake's the config does not set.
func headerNames(configured []config.Header, fixed []model.Header) []string {
	var names []string
	for _, h := range configured {
		names = append(names, h.Name)
	}
	for _, h := range fixed {
		if !slices.ContainsFunc(configured, func(c config.Header) bool { return c.Name == h.Name }) {
			names = append(names, h.Name)
		}
	}
	return names
}
