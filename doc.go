// Command mcplens inspects the tool surface an MCP client builds from the
// servers in a config: which tools each server advertised, which were
// registered and under what name, which a provider would reject, and the
// exact JSON-RPC a call puts on the wire. The root package owns the command
// line and nothing else: it parses flags, loads a config (loader/config),
// opens a session (loader) and hands its events to the interface (ui) or,
// headless, to the one fold of live state (surface) that check, call and
// the report read. It decides no status, finding or name itself, and no
// package imports it.
//
// Usage:
//
//	mcplens              open the built-in demo
//	mcplens PATH         open a config of any client (Claude, Cursor, VS Code, Gemini CLI, Codex, ...)
//	mcplens --discover   list the config files found here and in the usual places
//	mcplens check PATH   print the report and exit 0, 1 (found something) or 2 (usage)
//	mcplens diff A B     say what changed between two surfaces (configs, snapshots, locks, --git REF)
//	mcplens call PATH NAME --args JSON
//	                     call one tool and print the frames that crossed the wire
//	mcplens tap -- CMD ARGS...
//	                     run a server for a real client, recording every frame
package main
