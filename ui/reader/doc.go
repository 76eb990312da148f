// Package reader is the reader component: one long thing read whole (a
// call's result, a wire frame, a tool's detail, a finding, a resource
// read), taking the screen between the header and the footer. It scrolls,
// searches (each match highlighted), copies, saves and follows a frame's
// link through commands its opener gives it; what it shows is drawn,
// masked and sanitized by that opener. Its owner gives it its keys and
// styles (Config) and its size (SetSize), and asks it for its help
// (ShortHelp, FullHelp). It imports ui/kit, never ui.
package reader
