// Package probe runs the audit of one MCP server against the
// specification, from outside: it speaks to the server over its own
// transport (a child's stdio, or streamable HTTP) with a small bounded
// prober of its own, sends what a correct client sends and what a careless
// one might (an unknown method, malformed JSON, a foreign Origin, an
// unknown session id), and names each departure from the specification as
// an audit.Finding of one of package audit's checks.
//
// It negotiates as mcplens does (server/discover first on a stateless
// revision, then initialize) and runs the checks of the revision the
// server settled on, which the Result records; a check of another
// revision is reported not applicable, with why. Checks of rules every
// revision holds send the settled revision's noop request (noop).
//
// Run is the one entry. Every read is bounded in time and bytes and every
// probe has a deadline: a hostile server gets findings, never a hang. Tools
// are called only when the caller names them (Options.Calls); everything
// else is read-only. It shares with loader the handshake a client sends,
// the stateless revisions' _meta, the reading of a stdout line and the
// limits of what is read; package audit, which report reads, does not.
package probe
