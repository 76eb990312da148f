// Package recording is the format of what mcplens tap records and feeds:
// JSON Lines, a header line first, then one line per frame. It holds the
// one definition of that format that both sides use: relay writes it,
// capture reads it back.
//
//	{"format":"mcplens-tap","version":1,"server":"alpha","t":"...","command":["node","srv.js"]}
//	{"t":"...","server":"alpha","dir":"c2s","frame":{"jsonrpc":"2.0","id":1,"method":"initialize",...}}
//	{"t":"...","server":"alpha","dir":"s2c","text":"log: not JSON"}
//	{"t":"...","server":"alpha","dir":"s2c","cut":300000,"text":"{\"jsonrpc\":\"2.0\",..."}
//	{"t":"...","server":"alpha","dir":"stderr","text":"listening on stdio"}
//	{"t":"...","server":"alpha","dropped":3}
//
// A Header is the first line; a Line is any line as read back. relay's
// encoder writes a frame's line member by member, for speed, in the shape
// Line reads: relay's round-trip test holds the two together.
//
// It imports only the standard library.
package recording
