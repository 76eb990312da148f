package everything

import (
	"path/filepath"
	"sync"
	"testing"
)

// The MCP Apps example servers of the extension's repository, pinned: each
// a tool with an app (an HTML resource of type text/html;profile=mcp-app),
// run with node ENTRY --stdio.
const (
	BasicApp      = "@modelcontextprotocol/server-basic-vanillajs"
	BudgetApp     = "@modelcontextprotocol/server-budget-allocator"
	AppsVersion   = "2.0.3"
	appsEntryPath = "dist/index.js"
)

var appsInstalled = map[string]*struct {
	once  sync.Once
	entry string
	err   error
}{BasicApp: {}, BudgetApp: {}}

// AppEntry returns the entry point of one of the apps example servers
// (BasicApp, BudgetApp), installing it as Entry does server-everything,
// and skipping or failing t as Entry does.
func AppEntry(t testing.TB, pkg string) string {
	t.Helper()
	in, ok := appsInstalled[pkg]
	if !ok {
		t.Fatalf("no example server %s", pkg)
	}
	in.once.Do(func() {
		in.entry, in.err = install(pkg, AppsVersion, filepath.Join("node_modules", pkg, appsEntryPath))
	})
	needed(t, pkg, in.err)
	return in.entry
}
