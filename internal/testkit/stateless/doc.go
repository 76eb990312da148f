// Package stateless runs, for tests, an MCP server of the stateless
// revision 2026-07-28 over real loopback HTTP, written by hand from the
// specification (no SDK between the test and the wire): every request is
// checked as the revision asks (the MCP-Protocol-Version header, the
// _meta's protocolVersion, clientInfo and clientCapabilities, the two
// agreeing, the version supported) and answered with the revision's
// errors (-32020, -32022 with the versions supported, -32601 with 404);
// server/discover, tools/list with caching hints, tools/call, and the
// per-request log level in _meta. Knobs in Config make it refuse the
// first request whatever it asks (as the conformance suite's
// request-metadata scenario does), speak the handshake revisions instead
// (a server that does not discover), or want a login.
//
//	srv := stateless.Start(t, stateless.Config{})
//	// srv.URL is the MCP endpoint; srv.Requests() what reached it
//
// It is for tests only: production code never imports it. It imports the
// standard library alone.
package stateless
