package loader

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// FactsOfInitialize returns the facts of an initialize answer's result as
// sent (a tap's recording keeps it so), as a session reads them.
func FactsOfInitialize(result json.RawMessage) (ServerFacts, error) {
	var init mcp.InitializeResult
	if err := json.Unmarshal(result, &init); err != nil {
		return ServerFacts{}, err
	}
	return factsOf(&init), nil
}
