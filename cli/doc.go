// Package cli is mcplens's command line: it parses flags, loads a config
// (loader/config), opens a session (loader) and hands its events to the
// interface (ui) or, headless, to the one fold of live state (surface)
// that check, call and the report read. It decides no status, finding or
// name itself, and only the mcplens binary (the root package) imports it.
// Main is its one door: it takes the arguments and returns the exit code.
package cli
