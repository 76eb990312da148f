// Package oauthtest runs, for tests, a real OAuth 2.1 authorization server
// on loopback HTTP in front of a real MCP server (mcp-go, streamable
// HTTP) that wants its tokens: protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414), dynamic registration (RFC
// 7591), pre-registered clients and client ID metadata documents, PKCE
// S256 verified, the resource parameter (RFC 8707) checked, iss in the
// authorization response (RFC 9207), refresh tokens, and 403
// insufficient_scope for methods that need more scope. Each knob a test
// turns (no PKCE advertised, a wrong iss, short-lived tokens) is a field of
// Config.
//
//	as := oauthtest.Start(t, oauthtest.Config{})
//	// as.MCPURL is the MCP endpoint; Follow is a "browser"
//	err := oauth.Login(ctx, spec, oauth.Options{Store: s, Open: as.Follow})
//
// It is for tests only: production code never imports it. It imports
// mcp-go and the standard library, nothing of mcplens.
package oauthtest
