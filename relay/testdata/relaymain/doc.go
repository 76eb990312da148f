// Command relaymain is a relay and nothing else, for the relay package's
// tests and benchmarks: it does what `mcplens tap --record FILE -- CMD...`
// does, so that a test can signal a relay process of its own and a
// benchmark can measure one's memory without the rest of mcplens.
//
//	relaymain [-record FILE] CMD ARGS...
//
// It owns nothing mcplens ships: it imports only the relay package, and
// must not import ui, report or loader, as the relay itself does not.
package main
