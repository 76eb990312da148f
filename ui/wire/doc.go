// Package wire is the wire pane: the frames that crossed the wire between
// mcplens and its servers, for every server or one, newest last, a cursor
// on one (enter reads it whole, | beside the frame it links to, y copies
// it, J jumps between a request and its response, / filters). It reads
// the frames from a Source and opens readers (ui/reader) through its
// Config; it imports ui/kit and ui/reader, never ui.
package wire
