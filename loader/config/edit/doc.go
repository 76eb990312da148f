// Package edit is mcplens's one editor of client configs: it taps a
// config's stdio servers (`mcplens tap install`) and untaps them (`mcplens
// tap uninstall`) by bytes, so that everything but the servers' command
// and args stays as written (comments, order, spacing, trailing commas,
// CRLF, a byte order mark, TOML's strings, inline tables and dotted
// keys), and untapping gives back exactly the bytes there were before.
//
// The parsers mcplens reads configs with locate the bytes: hujson for
// JSON and JSONC, go-toml's parser for TOML (so a table header inside a
// multi-line string is never read as one). The edit itself only inserts
// and replaces bytes, never re-marshals the file.
//
// The tapped form says how to undo it, from the bytes alone, so that
// edits made between install and uninstall survive: the command's
// original bytes are kept in the args after "--", and a server that had no
// args gets its tap flags as --record then --name (--name then --record
// when it had some), so that uninstall knows to take the array away.
//
//	f, err := edit.Read("mcp.json")
//	doc, err := edit.Parse(f.Path, f.Data)
//	out, outcomes, err := doc.Tap(edit.Tap{Exe: "/usr/bin/mcplens", Record: recordPath})
//	err = f.Backup()
//	err = f.Write(out)
//
// File keeps what the file is: its mode, owner and group (root editing a
// user's config leaves it the user's), and all its names (a file with
// several hard links is written in place). It refuses a symbolic link, and
// a file that changed between reading and writing.
package edit
