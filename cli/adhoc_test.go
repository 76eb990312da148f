package cli

import "testing"

func TestCommandLabel(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31"}, "server-everything"},
		{[]string{"node", "/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}, "server-everything"},
		{[]string{"python3", "-m", "my_server"}, "my_server"},
		{[]string{"uvx", "mcp-server-fetch"}, "mcp-server-fetch"},
		{[]string{"/usr/local/bin/github-mcp-server", "stdio"}, "github-mcp-server"},
		{[]string{"docker", "run", "-i", "--rm", "ghcr.io/github/github-mcp-server"}, "github-mcp-server"},
		{[]string{"./server"}, "server"},
		{[]string{"node", "weird name__x.js"}, "weird-name_x"},
	} {
		if got := labelOf(commandName(tt.argv)); got != tt.want {
			t.Errorf("label of %q = %q, want %q", tt.argv, got, tt.want)
		}
	}
}
