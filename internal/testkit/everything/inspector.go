package everything

import (
	"path/filepath"
	"sync"
	"testing"
)

// The official MCP Inspector, whose CLI (--cli) is a client written by
// others, and the version the tests pin.
const (
	InspectorPackage = "@modelcontextprotocol/inspector"
	InspectorVersion = "2.12.0"
)

var inspector struct {
	once sync.Once
	bin  string
	err  error
}

// Inspector returns the path of the installed Inspector's command
// (mcp-inspector; run it with --cli), installing it as Entry installs the
// server, and skipping or failing t as Entry does.
func Inspector(t testing.TB) string {
	t.Helper()
	inspector.once.Do(func() {
		inspector.bin, inspector.err = install(InspectorPackage, InspectorVersion, filepath.Join("node_modules", ".bin", "mcp-inspector"))
	})
	needed(t, "inspector", inspector.err)
	return inspector.bin
}
