package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/surface"
)

// settleSlack is how long past the loader's own connect timeout check and
// call wait for the servers to settle before going on with what they have.
const settleSlack = 5 * time.Second

// errInterrupted is returned by connect when the user interrupted it.
var errInterrupted = errors.New("interrupted")

// open starts a session on every server of cfg with opts (Timeout 0: the
// config's own, else loader.DefaultTimeout), guarded.
func open(cfg *config.Config, opts loader.Options) *loader.Session {
	opts.Guard = guard
	return loader.Open(cfg, opts)
}

// settle waits until every server of session (opened on cfg) is Ready or
// Failed, and returns the snapshot: the connect-and-settle check and call
// share. err is errInterrupted when ctx (the signals) ended first, or says
// that servers were still connecting after the loader's timeout and some
// slack; the snapshot then holds them as they were.
func settle(ctx context.Context, cfg *config.Config, session *loader.Session, timeout time.Duration) (*surface.Snapshot, error) {
	wait := settleWait(cfg, timeout)
	settleCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	snap := surface.New(cfg.Servers, cfg.Findings)
	err := surface.Collect(settleCtx, session.Events(), snap)
	switch {
	case ctx.Err() != nil:
		return snap, errInterrupted
	case err != nil:
		return snap, fmt.Errorf("servers still connecting after %s", wait)
	}
	return snap, nil
}

// settleWait is how long to wait for every server of cfg to settle: the
// longest connect timeout the loader applies to one of them, plus slack.
func settleWait(cfg *config.Config, timeout time.Duration) time.Duration {
	longest := loader.DefaultTimeout
	for _, spec := range cfg.Servers {
		longest = max(longest, loader.ConnectTimeout(spec, timeout))
	}
	return longest + settleSlack
}
