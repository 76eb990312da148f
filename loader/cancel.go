package loader

import (
	"context"
	"errors"
	"strings"
)

// A causeContext is a context whose Err, once it has ended, reads as the
// cause it ended with (context.Cause) while still matching
// context.Canceled or context.DeadlineExceeded. mcp-go words the reason of
// the notifications/cancelled it sends for a request whose context ended
// as ctx.Err().Error(): through a causeContext the server reads why
// ("interrupted by the user", "the call's limit of 60s passed"), not
// "context canceled".
type causeContext struct{ context.Context }

// withReason returns ctx seen through a causeContext.
func withReason(ctx context.Context) context.Context { return causeContext{ctx} }

func (c causeContext) Err() error {
	err := c.Context.Err()
	if err == nil {
		return nil
	}
	cause := context.Cause(c.Context)
	if cause == nil || cause == err {
		// Nobody said why: say it in words rather than Go's.
		cause = errors.New("the client cancelled the request")
		if err == context.DeadlineExceeded {
			cause = errors.New("the client's time limit for the request passed")
		}
	}
	return &reasonError{cause: cause, err: err}
}

// A reasonError is a context's end in words (cause) that is still the
// context's own error (err) to errors.Is.
type reasonError struct{ cause, err error }

func (e *reasonError) Error() string   { return e.cause.Error() }
func (e *reasonError) Unwrap() []error { return []error{e.cause, e.err} }

// tidy returns err with a link of its text that repeats the link before it
// dropped: mcp-go's HTTP transports wrap "failed to send request" around
// their own "failed to send request: ...". The chain stays intact for
// errors.Is and errors.As.
func tidy(err error) error {
	if err == nil {
		return nil
	}
	text := tidyText(err.Error())
	if text == err.Error() {
		return err
	}
	return &tidyError{text: text, err: err}
}

// tidyText drops each ": "-separated link of s equal to the one before it.
func tidyText(s string) string {
	links := strings.Split(s, ": ")
	out := links[:1]
	for _, l := range links[1:] {
		if l != out[len(out)-1] {
			out = append(out, l)
		}
	}
	return strings.Join(out, ": ")
}

type tidyError struct {
	text string
	err  error
}

func (e *tidyError) Error() string { return e.text }
func (e *tidyError) Unwrap() error { return e.err }
