package loader

import (
	"encoding/json"

	"github.com/mcplens/mcplens/model"
)

// ToolsOfPage returns the tools of one tools/list result seen on the wire
// by someone else (a tap's recording), read as a listing reads each page,
// and its nextCursor. result must be valid JSON.
func ToolsOfPage(result json.RawMessage) ([]model.Tool, json.RawMessage, error) {
	rows, cursor, err := pageRows(result)
	if err != nil {
		return nil, nil, err
	}
	tools := make([]model.Tool, len(rows))
	for i, row := range rows {
		tools[i] = toolFromRow(row)
	}
	return tools, cursor, nil
}
