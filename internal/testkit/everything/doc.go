// Package everything installs the reference MCP server,
// @modelcontextprotocol/server-everything from the npm registry, pinned, for
// tests that need a real server written by others:
//
//	entry := everything.Entry(t) // dist/index.js; run it with node
//
// AppEntry does the same for the MCP Apps example servers
// (@modelcontextprotocol/server-basic-vanillajs, server-budget-allocator).
//
// It is installed with npm on first use into the user's cache directory. A
// missing node or npm, or a failed install, skips the test, and fails it
// when MCPLENS_REQUIRE_NODE=1 (CI sets it, so these tests always run there).
// It is for tests only and imports nothing of mcplens; production code never
// imports it.
package everything
