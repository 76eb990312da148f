// Package settle fills a surface.Snapshot from a live loader session: it
// waits until every server is Ready or Failed, within the loader's connect
// timeout and some slack (Session), or opens one session per handshake and
// settles them all at once (Each). check, call, diff, read and prompt share
// it. It is the one place surface meets loader, so that surface, and what
// reads it (report, surfacediff), imports neither loader nor mcp-go.
package settle
