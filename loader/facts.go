package loader

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
)

// factsOf returns the facts of an initialize answer, named as
// mcpsession.FactsOf names a recorded one: the capabilities mcp-go decoded
// are encoded again, once per connect, so that one function reads both.
func factsOf(init *mcp.InitializeResult) mcpsession.ServerFacts {
	info := init.ServerInfo
	caps, err := json.Marshal(init.Capabilities)
	if err == nil {
		var f mcpsession.ServerFacts
		if f, err = mcpsession.FactsOf(caps, init.Instructions, info.Title, info.WebsiteURL); err == nil {
			return f
		}
	}
	f, _ := mcpsession.FactsOf(nil, init.Instructions, info.Title, info.WebsiteURL)
	return f
}
