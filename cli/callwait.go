package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// callTimeout bounds the one call of `mcplens call` when --timeout is not
// given.
const callTimeout = 60 * time.Second

// callGrace is how long a call may take to return once its context ended.
// It returns at once (a write still in the server's pipe is cut); past the
// grace, the session is closed under it, which ends any write.
const callGrace = time.Second

// callLimit is the bound on the call: --timeout when given, else
// callTimeout.
func callLimit(timeout time.Duration) time.Duration {
	if timeout > 0 {
		return timeout
	}
	return callTimeout
}

// callWithin makes the call of `mcplens call` through rt, bounded by limit
// and by ctx (a signal). Whatever the server does, it returns within about
// limit + callGrace + the shutdown escalation.
func callWithin(ctx context.Context, session *loader.Session, rt model.Route, args json.RawMessage, limit time.Duration) (mcpsession.CallResult, error) {
	callCtx, cancel := context.WithTimeoutCause(ctx, limit, fmt.Errorf("the call's limit of %s passed (mcplens call --timeout)", limit))
	defer cancel()
	type outcome struct {
		res mcpsession.CallResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := session.Call(callCtx, rt.Server, rt.Wire, args)
		done <- outcome{res, err}
	}()
	var out outcome
	select {
	case out = <-done:
	case <-callCtx.Done():
		select {
		case out = <-done:
		case <-time.After(callGrace):
			session.Close()
			out = <-done
		}
	}
	switch {
	case out.err == nil:
	case ctx.Err() != nil:
		out.err = fmt.Errorf("interrupted: %w", out.err)
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		out.err = fmt.Errorf("%w (the call's limit is %s; --timeout sets it)", out.err, limit)
	}
	return out.res, out.err
}
