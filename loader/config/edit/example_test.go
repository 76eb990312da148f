package edit_test

import (
	"fmt"

	"github.com/mcplens/mcplens/loader/config/edit"
)

// A server with args gets the tap's flags first in them; one without gets
// an args array, its flags --record first, which is how uninstall knows
// to take the array away again.
func ExampleDoc_Tap() {
	orig := []byte(`{"mcpServers": {
  "fs": {"args": [], "command": "npx"},
  "git": {"command": "uvx"} // no args
}}`)
	doc, _ := edit.Parse(".mcp.json", orig)
	tapped, _, _ := doc.Tap(edit.Tap{Exe: "/usr/bin/mcplens", Record: func(l string) string { return l + ".jsonl" }})
	fmt.Printf("%s\n", tapped)
	again, _ := edit.Parse(".mcp.json", tapped)
	back, labels, _ := again.Untap()
	fmt.Println(labels, string(back) == string(orig))
	// Output:
	// {"mcpServers": {
	//   "fs": {"args": ["tap", "--name", "fs", "--record", "fs.jsonl", "--", "npx"], "command": "/usr/bin/mcplens"},
	//   "git": {"command": "/usr/bin/mcplens", "args": ["tap", "--record", "git.jsonl", "--name", "git", "--", "uvx"]} // no args
	// }}
	// [fs git] true
}
