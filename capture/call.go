package capture

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"
)

// A Call is one tools/call the client made.
type Call struct {
	Server string
	// Wire is the tool name the call carried to the server.
	Wire string
	// Args are its arguments, as sent, cut to their first maxArgsKept
	// bytes (then not JSON): what is shown of a call is its start.
	Args json.RawMessage
	Sent time.Time
	// Answered is set when the answer was seen: Latency, IsError and
	// Error (the JSON-RPC error's message) then say how it went.
	Answered bool
	Latency  time.Duration
	IsError  bool
	Error    string
}

// Took says how the call went, as watch, check and the interface show it:
// "no answer yet", or its latency, then " error" and the error's message
// when it failed. The text is the server's: sanitize it to show it.
func (c Call) Took() string {
	if !c.Answered {
		return "no answer yet"
	}
	took := c.Latency.Round(time.Microsecond).String()
	if c.IsError {
		took += " error"
		if c.Error != "" {
			took += ": " + c.Error
		}
	}
	return took
}

// maxArgsKept bounds what a Call keeps of its arguments: every view shows
// at most their first 120 bytes, and a recording may hold millions of calls.
const maxArgsKept = 256

// clipArgs is args cut to maxArgsKept bytes, at a character's start.
func clipArgs(args json.RawMessage) json.RawMessage {
	if len(args) <= maxArgsKept {
		return args
	}
	n := maxArgsKept
	for n > 0 && !utf8.RuneStart(args[n]) {
		n--
	}
	return bytes.Clone(args[:n]) // not a slice of args: that would keep all of it
}
