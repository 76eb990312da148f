// Package capture owns reading what `mcplens tap` recorded (the JSONL
// format relay/doc.go describes, from a file or a live feed): the client's
// handshake with each server, the tools each server listed to it and every
// tools/call it made, with its answer and latency. It turns a recording
// into the loader events a surface.Snapshot folds, so that a recording
// opens as a surface with no server started (and a side of a diff), into
// the frame logs the wire pane reads (Read keeps them when asked; a live
// feed's Decoder does not), and into a HAR file, written as it is read.
// Every recording is read through internal/bounded: a regular file only,
// line by line within the line and file limits. Follow reads the live feeds of
// the running taps as they start and end; Live serves them to the
// interface (mcplens watch) as a Backend would: a server declared by each
// tap, its listing, frames and the client's calls, as they happen. It
// imports model, loader (to read a listing as a session does) and
// loader/config, and must not import ui, report, surface or relay: the
// views and commands that show a capture read it, and judge its calls with
// model.JudgeCall.
//
//	d := capture.NewDecoder()
//	for _, line := range lines {
//		for _, ob := range d.Line(line) {
//			if ob.Call != nil { fmt.Println(ob.Server, ob.Call.Wire) }
//		}
//	}
//	c := d.Capture() // every server and call so far
package capture
