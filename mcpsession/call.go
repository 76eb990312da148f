package mcpsession

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcplens/mcplens/internal/bounded"
)

// A CallResult is one tools/call as it crossed the wire.
type CallResult struct {
	Server, Wire string
	// Request is the exact tools/call line written to the server's stdin:
	// the tapped bytes, not a re-encoding.
	Request []byte
	// Response is the exact line the server answered that request with,
	// or only its start when ResponseSize is larger: a line over the line
	// limit is abandoned once over it, and of a result over the result
	// limit only the start is kept.
	Response []byte
	// ResponseSize is how long the response line was, or for a line
	// abandoned over the line limit, how much of it was read.
	ResponseSize int
	// Latency runs from writing the request to reading its response; a
	// task's, from its creation to its end, however it ended.
	Latency time.Duration
	IsError bool            // the result's isError
	Result  json.RawMessage // the response's result object, as sent (a task's: its result)
	// Rounds is how many times the tools/call was sent: more than one
	// when the server answered input_required (a multi-round request).
	Rounds int
	// Task is the task the call became, nil when it did not.
	Task *TaskRun
}

// A TaskRun is a task a call became, as far as it was followed.
type TaskRun struct {
	ID string
	// Generation is the revision of tasks it followed: "2025-11-25"
	// (the call asked for a task) or "2026-07-28" (the tasks extension).
	Generation string
	// Status and Message are the last the server gave (working,
	// input_required, completed, failed, cancelled).
	Status, Message string
	Started         time.Time
	Polls           int  // tasks/get sent
	Inputs          int  // input requests answered (tasks/update)
	Cancelled       bool // mcplens sent tasks/cancel
}

// CutMark marks a response of which only the start is held, for showing
// after it: "… [cut: 65536 of 9000000 bytes]", or "" when it is whole. A
// line over the line limit (err says so) was abandoned unread past the
// limit, so its length is only known to be over it.
func (r CallResult) CutMark(err error) string {
	if r.ResponseSize <= len(r.Response) {
		return ""
	}
	var lerr *bounded.LimitError
	if errors.As(err, &lerr) && lerr.Limit == "line" {
		return fmt.Sprintf("… [cut: %d of over %d bytes]", len(r.Response), r.ResponseSize)
	}
	return fmt.Sprintf("… [cut: %d of %d bytes]", len(r.Response), r.ResponseSize)
}
