package mcpsession

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxInstructions bounds the instructions a server's Facts keep: they are
// shown and reported, never sent on, and a server may send megabytes.
const MaxInstructions = 4 << 10

// ServerFacts are what a server said of itself when it connected, beyond
// its name and version: display only, never an identity.
type ServerFacts struct {
	// Capabilities lists the capabilities the server declared, each with
	// its flags: "tools(listChanged)", "logging", ...
	Capabilities []string
	// Instructions is the server's hint to the model, as sent, cut to
	// MaxInstructions bytes (Cut says so).
	Instructions string
	Cut          bool
	// Title and Website are the serverInfo's title and websiteUrl.
	Title, Website string
	// Settled says which protocol revision the connection settled on, how
	// and why, as every view and report prints it: "2026-07-28 via
	// server/discover", "2025-11-25 via initialize: server/discover answered
	// error -32601 (method not found)"; "" for a recording.
	Settled string
	// ToolsCache is the caching hints of the last tools/list (its first
	// page), on a stateless connection; the zero hint elsewhere.
	ToolsCache CacheHint
}

// capabilities is the capabilities object of an initialize answer, as far
// as the facts name it: each member has the shape the protocol's schema
// (and mcp-go's ServerCapabilities) gives it.
type capabilities struct {
	Tools *struct {
		ListChanged bool `json:"listChanged"`
	} `json:"tools"`
	Resources *struct {
		Subscribe   bool `json:"subscribe"`
		ListChanged bool `json:"listChanged"`
	} `json:"resources"`
	Prompts *struct {
		ListChanged bool `json:"listChanged"`
	} `json:"prompts"`
	Logging      *struct{}                  `json:"logging"`
	Completions  *struct{}                  `json:"completions"`
	Sampling     *struct{}                  `json:"sampling"`
	Elicitation  *struct{}                  `json:"elicitation"`
	Roots        *struct{}                  `json:"roots"`
	Tasks        *struct{}                  `json:"tasks"`
	Experimental map[string]json.RawMessage `json:"experimental"`
	Extensions   map[string]json.RawMessage `json:"extensions"`
}

// FactsOfInitialize returns the facts of an initialize answer's result as
// sent (a tap's recording keeps it so), as a session reads them.
func FactsOfInitialize(result json.RawMessage) (ServerFacts, error) {
	var init struct {
		Capabilities json.RawMessage `json:"capabilities"`
		ServerInfo   struct {
			Title      string `json:"title"`
			WebsiteURL string `json:"websiteUrl"`
		} `json:"serverInfo"`
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(result, &init); err != nil {
		return ServerFacts{}, err
	}
	return FactsOf(init.Capabilities, init.Instructions, init.ServerInfo.Title, init.ServerInfo.WebsiteURL)
}

// FactsOf returns the facts of a server that declared caps (the
// capabilities object of its initialize answer, as sent; empty or null
// declares none), with its instructions, title and website.
func FactsOf(caps json.RawMessage, instructions, title, website string) (ServerFacts, error) {
	var c capabilities
	if len(caps) > 0 {
		if err := json.Unmarshal(caps, &c); err != nil {
			return ServerFacts{}, err
		}
	}
	f := ServerFacts{
		Capabilities: capabilityNames(c),
		Instructions: instructions,
		Title:        title,
		Website:      website,
	}
	if len(f.Instructions) > MaxInstructions {
		n := MaxInstructions
		for n > 0 && !utf8.RuneStart(f.Instructions[n]) {
			n--
		}
		f.Instructions, f.Cut = f.Instructions[:n], true
	}
	return f, nil
}

// capabilityNames lists the capabilities c declares, in the specification's
// order, each with the flags it sets.
func capabilityNames(c capabilities) []string {
	var out []string
	add := func(declared bool, name string, flags ...string) {
		if !declared {
			return
		}
		if len(flags) > 0 {
			name += "(" + strings.Join(flags, ",") + ")"
		}
		out = append(out, name)
	}
	flag := func(set bool, name string) []string {
		if set {
			return []string{name}
		}
		return nil
	}
	add(c.Tools != nil, "tools", flag(c.Tools != nil && c.Tools.ListChanged, "listChanged")...)
	var res []string
	if r := c.Resources; r != nil {
		res = append(flag(r.Subscribe, "subscribe"), flag(r.ListChanged, "listChanged")...)
	}
	add(c.Resources != nil, "resources", res...)
	add(c.Prompts != nil, "prompts", flag(c.Prompts != nil && c.Prompts.ListChanged, "listChanged")...)
	add(c.Logging != nil, "logging")
	add(c.Completions != nil, "completions")
	add(c.Sampling != nil, "sampling")
	add(c.Elicitation != nil, "elicitation")
	add(c.Roots != nil, "roots")
	add(c.Tasks != nil, "tasks")
	add(len(c.Experimental) > 0, "experimental", sortedKeys(c.Experimental)...)
	add(len(c.Extensions) > 0, "extensions", sortedKeys(c.Extensions)...)
	return out
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
