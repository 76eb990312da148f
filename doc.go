// Command mcplens inspects the tool surface an MCP client builds from the
// servers in a config: which tools each server advertised, which were
// registered and under what name, which a provider would reject, and the
// exact JSON-RPC a call puts on the wire. The root package is the binary
// and nothing else: it serves the hidden subcommands (the demo servers,
// the process guard) and hands every other command line to package cli.
//
// Usage:
//
//	mcplens              open the built-in demo
//	mcplens PATH         open a config of any client (Claude, Cursor, VS Code, Gemini CLI, Codex, ...)
//	mcplens -- CMD ARGS...
//	mcplens --url URL    open one server without a config (cli/adhoc.go); check and call take them too
//	mcplens --discover   list the config files found here and in the usual places
//	mcplens check PATH   print the report and exit 0, 1 (found something) or 2 (usage)
//	mcplens diff A B     say what changed between two surfaces (configs, snapshots, locks, --git REF)
//	mcplens call PATH NAME --args JSON [--arg K=V]... [--server LABEL]
//	                     call one tool, checked against its input schema, printing the frames
//	                     as they cross the wire (cli/callprint.go); --replay FILE makes a history's calls again
//	mcplens tap -- CMD ARGS...
//	                     run a server for a real client, recording every frame
//	mcplens tap install|uninstall CONFIG
//	                     put the tap in front of a config's servers, or take it out
//	mcplens watch        show what the running taps see, each call judged
//	mcplens [check] CAPTURE.jsonl...
//	                     open a tap's recordings offline; mcplens tap har turns them into HAR
//	mcplens read PATH SERVER URI
//	mcplens prompt PATH SERVER NAME [--arg K=V]... [--complete ARG]
//	                     read one resource, get one prompt or complete its argument
package main
