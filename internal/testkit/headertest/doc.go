// Package headertest is a stateless MCP server of protocol 2026-07-28 over
// real loopback HTTP that records the headers of every request it gets,
// for tests of what mcplens sends: the standard headers (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name, Mcp-Param-*) on the probe, listings, calls, reads
// and prompts. In its legacy mode it refuses server/discover and speaks
// initialize at 2025-11-25, as a server of the older revisions does. It
// also counts the requests to a canary path, so a test can say nothing
// fetched a schema's remote $ref. Tests only.
//
//	srv := headertest.Start(t, headertest.Options{Tools: `[{"name":"t","inputSchema":{"type":"object"}}]`})
//	// connect to srv.URL, call t, then:
//	req, _ := srv.Last("tools/call")
//	fmt.Println(req.Header.Get("Mcp-Name")) // t
package headertest
