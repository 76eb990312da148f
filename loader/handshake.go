package loader

import (
	"slices"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// newClient is the mcp-go client of a connection over tr: it asks for the
// handshake's protocol revision (one that uses initialize, so no
// server/discover probe stalls the connect) and declares exactly the
// handshake's capabilities: no handler is registered with mcp-go, which
// would add capabilities of its own; the conn answers server requests
// itself (answer).
func (c *conn) newClient(tr transport.Interface) *client.Client {
	h := c.hs
	cl := client.NewClient(tr,
		client.WithProtocolVersion(h.ProtocolVersion),
		client.WithClientCapabilities(capabilities(h.Capabilities)))
	cl.OnNotification(c.onNotification)
	cl.OnNotification(c.onLog)
	return cl
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
	return caps
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
