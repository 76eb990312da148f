// Package mcpsession holds what a session with MCP servers reports, for
// every package that reads it: the Event each change of a server sends
// (its State, the ServerFacts and Offers it carries), the Frames that
// crossed the wire and the FrameLog that keeps them, and the CallResult of
// one tools/call. It also reads a server's own words into those values
// (FactsOfInitialize, ToolsOfPage), so that a live session and a recording
// read back give the same facts and the same tools.
//
// loader produces these values from live connections, capture from a tap's
// recording; surface folds the events, and ui, report and surfacediff read
// them. It imports model and loader/config only, never mcp-go: a package
// that reads a session's events need not link an MCP client.
package mcpsession
