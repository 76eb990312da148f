package loader

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// maxUpdates bounds the resource updates kept per server.
const maxUpdates = 200

// A ResourceUpdate is one notifications/resources/updated a server sent.
type ResourceUpdate struct {
	URI string
	At  time.Time
}

// offerState is a connection's part in its offers: what it declared, the
// relisting its list_changed asks for, and the updates of the resources it
// is subscribed to.
type offerState struct {
	relist chan struct{} // capacity 1: a list_changed is pending

	mu         sync.Mutex
	caps       mcp.ServerCapabilities
	updates    []ResourceUpdate
	lost       int             // updates dropped from the front
	subscribed map[string]bool // by URI
}

func newOfferState() *offerState {
	return &offerState{relist: make(chan struct{}, 1), subscribed: map[string]bool{}}
}

// listsTools reports whether a server declaring caps is asked for its
// tools: when it declares tools, and when it declares none of tools,
// resources and prompts (asked all the same, as servers that declare
// nothing often serve tools). A server declaring only resources or prompts
// is not asked, and has no tools.
func listsTools(caps mcp.ServerCapabilities) bool {
	return caps.Tools != nil || caps.Resources == nil && caps.Prompts == nil
}

// listOffers lists what caps declares, within ctx.
func (c *conn) listOffers(ctx context.Context, caps mcp.ServerCapabilities) mcpsession.Offers {
	c.offers.mu.Lock()
	c.offers.caps = caps
	c.offers.mu.Unlock()
	var o mcpsession.Offers
	note := func(err error, stop string) {
		switch {
		case err != nil:
			o.Notes = append(o.Notes, err.Error())
		case stop != "":
			o.Notes = append(o.Notes, stop)
		}
	}
	if caps.Resources != nil {
		o.Subscribe = caps.Resources.Subscribe
		rows, stop, err := c.lister.rows(ctx, mcp.MethodResourcesList, "resources")
		note(err, stop)
		for _, row := range rows {
			o.Resources = append(o.Resources, resourceFromRow(row))
		}
		rows, stop, err = c.lister.rows(ctx, mcp.MethodResourcesTemplatesList, "resourceTemplates")
		note(err, stop)
		for _, row := range rows {
			o.Templates = append(o.Templates, templateFromRow(row))
		}
	}
	if caps.Prompts != nil {
		rows, stop, err := c.lister.rows(ctx, mcp.MethodPromptsList, "prompts")
		note(err, stop)
		for _, row := range rows {
			o.Prompts = append(o.Prompts, promptFromRow(row))
		}
	}
	o.Completions = caps.Completions != nil
	return o
}

// onOffers runs on mcp-go's read loop, beside onNotification: it keeps a
// resource update and flags a relisting, nothing that blocks.
func (c *conn) onOffers(n mcp.JSONRPCNotification) {
	switch n.Method {
	case string(mcp.MethodNotificationResourceUpdated):
		uri, _ := n.Params.AdditionalFields["uri"].(string)
		c.offers.mu.Lock()
		c.offers.updates = append(c.offers.updates, ResourceUpdate{URI: uri, At: time.Now()})
		if drop := len(c.offers.updates) - maxUpdates; drop > 0 {
			c.offers.lost += drop
			c.offers.updates = append(c.offers.updates[:0], c.offers.updates[drop:]...)
		}
		c.offers.mu.Unlock()
	case string(mcp.MethodNotificationResourcesListChanged), string(mcp.MethodNotificationPromptsListChanged):
		select {
		case c.offers.relist <- struct{}{}:
		default:
		}
	}
}

// relistOffers lists the offers again after each (burst of) list_changed
// and sends the server's Ready event again when they changed, paced as
// relistLoop paces tools.
func (c *conn) relistOffers() {
	for {
		select {
		case <-c.s.ctx.Done():
			return
		case <-c.offers.relist:
		}
		select {
		case <-c.s.ctx.Done():
			return
		case <-time.After(relistDelay):
		}
		select {
		case <-c.offers.relist:
		default:
		}
		c.mu.Lock()
		ready := c.state == mcpsession.Ready
		c.mu.Unlock()
		if !ready || c.closing.Load() {
			return
		}
		c.offers.mu.Lock()
		caps := c.offers.caps
		c.offers.mu.Unlock()
		ctx, cancel := context.WithTimeout(c.s.ctx, c.timeout)
		o := c.listOffers(ctx, caps)
		cancel()
		c.mu.Lock()
		if c.state != mcpsession.Ready || c.closing.Load() {
			c.mu.Unlock()
			return
		}
		if sameOffers(o, c.ready.Offers) {
			c.mu.Unlock()
			continue
		}
		c.ready.Offers = o
		ev := c.ready
		c.mu.Unlock()
		c.s.emit(ev)
	}
}

// sameOffers reports whether a and b list the same rows, byte for byte,
// with the same notes.
func sameOffers(a, b mcpsession.Offers) bool {
	raw := func(x, y json.RawMessage) bool { return string(x) == string(y) }
	return slices.Equal(a.Notes, b.Notes) &&
		slices.EqualFunc(a.Resources, b.Resources, func(x, y model.Resource) bool { return raw(x.Raw, y.Raw) }) &&
		slices.EqualFunc(a.Templates, b.Templates, func(x, y model.ResourceTemplate) bool { return raw(x.Raw, y.Raw) }) &&
		slices.EqualFunc(a.Prompts, b.Prompts, func(x, y model.Prompt) bool { return raw(x.Raw, y.Raw) })
}

// ResourceUpdates returns the notifications/resources/updated a server
// sent, oldest first, and how many older ones were dropped.
func (s *Session) ResourceUpdates(server string) ([]ResourceUpdate, int) {
	c := s.conn(server)
	if c == nil {
		return nil, 0
	}
	c.offers.mu.Lock()
	defer c.offers.mu.Unlock()
	return slices.Clone(c.offers.updates), c.offers.lost
}

// Subscribed reports whether mcplens is subscribed to the resource uri of
// server.
func (s *Session) Subscribed(server, uri string) bool {
	c := s.conn(server)
	if c == nil {
		return false
	}
	c.offers.mu.Lock()
	defer c.offers.mu.Unlock()
	return c.offers.subscribed[uri]
}

// A row is a listed row decoded for its fields: each string member read
// leniently (a member of another type reads as "").
type row map[string]json.RawMessage

func decodeRow(raw json.RawMessage) (row, string) {
	var r row
	if err := json.Unmarshal(raw, &r); err != nil || r == nil {
		return nil, fmt.Sprintf("row is %s, not an object", mcpsession.JSONType(raw))
	}
	return r, ""
}

func (r row) str(key string) string { return jsonString(r[key]) }

// name reads the row's name as mcpsession.ToolOfRow does: whether it is usable, and
// why not.
func (r row) name() (name string, ok bool, problem string) {
	raw := r["name"]
	switch {
	case raw == nil:
		return "", false, "missing name"
	case raw[0] != '"':
		return "", false, fmt.Sprintf("name is %s, not a string", mcpsession.JSONType(raw))
	}
	if err := json.Unmarshal(raw, &name); err != nil {
		return "", false, "name is not a valid string"
	}
	if name == "" {
		return "", false, "empty name"
	}
	return name, true, ""
}

func promptFromRow(raw json.RawMessage) model.Prompt {
	p := model.Prompt{Raw: raw}
	r, problem := decodeRow(raw)
	if r == nil {
		p.NameProblem = problem
		return p
	}
	p.Name, p.NameOK, p.NameProblem = r.name()
	p.Title, p.Description = r.str("title"), r.str("description")
	var args []row
	_ = json.Unmarshal(r["arguments"], &args)
	for _, a := range args {
		var required bool
		_ = json.Unmarshal(a["required"], &required)
		p.Arguments = append(p.Arguments, model.PromptArgument{
			Name: a.str("name"), Title: a.str("title"), Description: a.str("description"), Required: required,
		})
	}
	return p
}

func resourceFromRow(raw json.RawMessage) model.Resource {
	res := model.Resource{Raw: raw, Size: -1}
	r, _ := decodeRow(raw)
	if r == nil {
		return res
	}
	res.URI, res.Name, res.Title = r.str("uri"), r.str("name"), r.str("title")
	res.Description, res.MIMEType = r.str("description"), r.str("mimeType")
	if size, ok := r["size"]; ok && json.Unmarshal(size, &res.Size) != nil {
		res.Size = -1
	}
	return res
}

func templateFromRow(raw json.RawMessage) model.ResourceTemplate {
	t := model.ResourceTemplate{Raw: raw}
	r, _ := decodeRow(raw)
	if r == nil {
		return t
	}
	t.URITemplate, t.Name, t.Title = r.str("uriTemplate"), r.str("name"), r.str("title")
	t.Description, t.MIMEType = r.str("description"), r.str("mimeType")
	return t
}
