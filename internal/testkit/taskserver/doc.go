// Package taskserver is a test MCP server for multi-round requests and
// tasks, over streamable HTTP (Handler, on loopback with httptest) and
// stdio (testdata/servers/tasks, built by Spec): an mcp-go server whose
// tool and prompt answer input_required (2026-07-28) or ask the
// same questions as server requests of an older client; two tools that
// run as 2025-11-25 tasks (slow, forever); and ext-task, a 2026-07-28
// task of the tasks extension that asks its question through tasks/get
// and takes the answer through tasks/update, which mcp-go does not
// implement and this package answers itself.
//
// It is for tests only; production code never imports it.
package taskserver
