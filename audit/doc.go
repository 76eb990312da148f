// Package audit judges one MCP server against the specification, from
// outside: it speaks to the server over its own transport (a child's stdio,
// or streamable HTTP) with a small bounded prober of its own, sends what a
// correct client sends and what a careless one might (an unknown method,
// malformed JSON, a foreign Origin, an unknown session id), and names each
// departure from the specification as a Finding of a Check.
//
// Each Check has a stable id ("lifecycle.unknown-method"), a Level and the
// specification section it comes from (checks.go, the one table); each
// Finding carries the exact frames, or HTTP exchanges, that prove it, as
// mcpsession.Frames a reader can open. Every read is bounded in time and
// bytes and every probe has a deadline: a hostile server gets findings,
// never a hang. Tools are called only when the caller names them
// (Options.Calls); everything else is read-only.
//
// The package decides; report renders a Result (text, JSON, Markdown,
// SARIF, JUnit) and the interface shows it.
package audit
