// Package audit holds what an audit of one MCP server against the
// specification says, without the probing: the one table of checks
// (checks.go: each Check with a stable id such as
// "lifecycle.unknown-method", a Level and the specification section it
// comes from) and the Result of an audit (result.go): its Findings, each
// with the frames or HTTP exchanges that prove it as mcpsession.Frames, the
// checks passed and those skipped with why.
//
// It imports neither loader nor mcp-go, so that report (which renders a
// Result as text, JSON, Markdown, SARIF and JUnit) and the interface read
// an audit without a session's machinery. Package audit/probe runs an
// audit and fills a Result.
package audit
