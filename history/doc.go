// Package history keeps the calls made in a session: each Record is one
// tools/call (server, tool, arguments, result, timing, the frames that
// crossed), and a File keeps them across runs as JSON Lines, one record a
// line, written through internal/safefile with mode 0600 and read line by
// line through internal/bounded (Scan). The interface
// records every call it places in it; `mcplens call --replay FILE` reads
// the same records to place the calls again.
//
// It owns the record format and the file, nothing else: it must not
// import the loader, the interface or the model, and it never decides
// what a record holds beyond bounding its size (callers mask secrets
// before recording).
//
//	l, _ := history.Open(path) // the records already there, if any
//	l.Append(history.Record{Server: "alpha", Tool: "request", Arguments: args})
//	_ = history.Write(l.Path(), l.Bytes())
//	last, ok := l.Last("alpha", "request")
package history
