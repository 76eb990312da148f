package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MCP Apps (the io.modelcontextprotocol/ui extension, stable 2026-01-26)
// lets a tool carry an HTML interface: the tool's _meta.ui.resourceUri
// names a ui:// resource of type AppMIMEType, and _meta.ui.visibility says
// who may use the tool, the model, the app, or both (the default). A
// client that hosts apps declares the extension in its capabilities and
// hands a tool whose visibility leaves out "model" to its app alone; a
// client that does not host apps knows nothing of visibility and registers
// the tool as any other. So the registry a model sees depends on the
// client: Catalogue.HostsApps carries the fact, and a policy's Apply
// withholds app-only rows where it is set (forModel).

// The extension's names.
const (
	// AppsExtension is the key of the extension under a client's
	// capabilities.extensions.
	AppsExtension = "io.modelcontextprotocol/ui"
	// AppMIMEType is the type of an app's ui:// resource.
	AppMIMEType = "text/html;profile=mcp-app"
	// AppScheme is the scheme of an app's resource.
	AppScheme = "ui://"
)

// MaxAppURI bounds a tool's _meta.ui.resourceUri: a longer one names no
// app (an app-meta finding says why), rather than being quoted by every
// row, finding and view that names the tool's app.
const MaxAppURI = 2048

// The visibility values.
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// A ToolApp is what a tool's _meta.ui says of its app.
type ToolApp struct {
	// ResourceURI is _meta.ui.resourceUri (or the older flat
	// _meta["ui/resourceUri"]); "" when the tool names no resource.
	ResourceURI string
	// Visibility is _meta.ui.visibility as listed; nil when absent, which
	// means both the model and the app.
	Visibility []string
	// Problem says what is malformed in _meta.ui; "" when nothing is.
	Problem string
}

// DeclaresApps reports whether a client's capabilities, as sent (an
// initialize request's, or a stateless request's _meta clientCapabilities),
// declare the MCP Apps extension: the client hosts apps.
func DeclaresApps(caps json.RawMessage) bool {
	var c struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	return json.Unmarshal(caps, &c) == nil && c.Extensions[AppsExtension] != nil
}

// ForModel reports whether a client that hosts apps hands the tool to the
// model: visibility absent, or naming "model".
func (a *ToolApp) ForModel() bool {
	return a == nil || a.Visibility == nil || slices.Contains(a.Visibility, VisibleToModel)
}

// ForApp reports whether the tool's app (any app of its server) may call
// it: visibility absent, or naming "app".
func (a *ToolApp) ForApp() bool {
	return a == nil || a.Visibility == nil || slices.Contains(a.Visibility, VisibleToApp)
}

// VisibilityText is the visibility as a report quotes it: `["app"]`.
func (a *ToolApp) VisibilityText() string {
	b, _ := json.Marshal(a.Visibility)
	return string(b)
}

// AppOfMeta reads a tool's _meta member (raw JSON, nil when absent): the
// tool's app, or nil when _meta says nothing of one.
func AppOfMeta(meta json.RawMessage) *ToolApp {
	if len(meta) == 0 {
		return nil
	}
	var m struct {
		UI     json.RawMessage `json:"ui"`
		Legacy json.RawMessage `json:"ui/resourceUri"`
	}
	if json.Unmarshal(meta, &m) != nil || len(m.UI) == 0 && len(m.Legacy) == 0 {
		return nil
	}
	a := &ToolApp{}
	var problems []string
	if len(m.Legacy) > 0 && json.Unmarshal(m.Legacy, &a.ResourceURI) != nil {
		problems = append(problems, `_meta["ui/resourceUri"] is not a string`)
	}
	if len(m.UI) > 0 && string(m.UI) != "null" {
		var ui struct {
			ResourceURI json.RawMessage `json:"resourceUri"`
			Visibility  json.RawMessage `json:"visibility"`
		}
		if json.Unmarshal(m.UI, &ui) != nil {
			problems = append(problems, "_meta.ui is "+JSONKind(m.UI)+", not an object")
		}
		if len(ui.ResourceURI) > 0 {
			var uri string
			if json.Unmarshal(ui.ResourceURI, &uri) != nil {
				problems = append(problems, "_meta.ui.resourceUri is "+JSONKind(ui.ResourceURI)+", not a string")
			} else {
				a.ResourceURI = uri
			}
		}
		if len(ui.Visibility) > 0 {
			a.Visibility, problems = visibilityOf(ui.Visibility, problems)
		}
	}
	if n := len(a.ResourceURI); n > MaxAppURI {
		problems = append(problems, fmt.Sprintf("resourceUri is %d bytes, over the host's %d: no app is read", n, MaxAppURI))
		a.ResourceURI = ""
	}
	if a.ResourceURI != "" && !strings.HasPrefix(a.ResourceURI, AppScheme) {
		problems = append(problems, fmt.Sprintf("resourceUri %q is not a %s URI", a.ResourceURI, AppScheme))
	}
	a.Problem = strings.Join(problems, "; ")
	return a
}

// visibilityOf reads _meta.ui.visibility: an array of "model" and "app".
// A malformed one is read as absent (both), as a host that ignores it
// would, and said in problems.
func visibilityOf(raw json.RawMessage, problems []string) ([]string, []string) {
	var vs []string
	if json.Unmarshal(raw, &vs) != nil {
		return nil, append(problems, "_meta.ui.visibility is "+JSONKind(raw)+", not an array of strings")
	}
	out := []string{}
	for _, v := range vs {
		if v != VisibleToModel && v != VisibleToApp {
			problems = append(problems, fmt.Sprintf("_meta.ui.visibility names %q (want %q or %q)", v, VisibleToModel, VisibleToApp))
			continue
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, problems
}

// The reasons an app-only row gives, under a client that hosts apps and
// under one that does not.
func appOnlyWithheld(a *ToolApp) string {
	return "app only: _meta.ui.visibility " + a.VisibilityText() +
		" leaves out the model; a client that hosts apps hands the tool to its app, never to the model"
}

func appOnlyRegistered(a *ToolApp) string {
	return "app only by _meta.ui.visibility " + a.VisibilityText() +
		", but the client hosts no apps: registered for the model as an ordinary tool"
}

// forModel returns cats as the model's registry sees them: under a client
// that hosts apps, each app-only row withheld (its Filtered outcome says
// why). cats is returned as it is when nothing is withheld; a catalogue
// with a row to withhold is copied, never written to.
func forModel(cats []Catalogue) []Catalogue {
	var out []Catalogue
	for ci, cat := range cats {
		if !cat.HostsApps || !slices.ContainsFunc(cat.Tools, func(t Tool) bool { return !t.App.ForModel() }) {
			continue
		}
		if out == nil {
			out = slices.Clone(cats)
		}
		tools := slices.Clone(cat.Tools)
		for i := range tools {
			if t := &tools[i]; !t.App.ForModel() && t.FilteredBy == "" {
				t.withheld = appOnlyWithheld(t.App)
			}
		}
		out[ci].Tools = tools
	}
	if out == nil {
		return cats
	}
	return out
}

// appNotes notes on the live outcome of each row with an app what the
// client makes of it: an app shown with the tool, an app not shown, an
// app-only tool handed to the model all the same.
func (b *builder) appNotes(ci int) {
	hosts := b.cats[ci].HostsApps
	sr := &b.reg.Servers[ci]
	for i := range sr.Outcomes {
		o := &sr.Outcomes[i]
		a := b.cats[ci].Tools[i].App
		if !o.Live() || a == nil {
			continue
		}
		var note string
		switch {
		case !hosts && !a.ForModel():
			note = appOnlyRegistered(a)
		case a.ResourceURI == "":
			continue
		case hosts:
			note = "with its app " + QuoteJSON(a.ResourceURI) + ", which the client shows"
		default:
			note = "its app " + QuoteJSON(a.ResourceURI) + " is not shown: the client hosts no apps"
		}
		if o.Reason == "" {
			o.Reason = note
		} else {
			o.Reason += "; " + note
		}
	}
}
