package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
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
	if opts.HTTPAuth == nil {
		opts.HTTPAuth = httpAuth(cfg) // stored OAuth tokens; never a browser
	}
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

// settleEach opens a session on cfg per handshake (opts with its Handshake
// replaced; opts as they are when handshakes is empty), settles them all at
// once (settle), and returns their snapshots in order, with closeAll, which
// shuts every session down at once and returns their errors joined: the
// caller prints what it has first, so that a server slow to exit never
// delays the output, then calls closeAll before it exits. err is the first
// error of a settle (errInterrupted first); settled reports whether every
// session settled.
func settleEach(ctx context.Context, cfg *config.Config, opts loader.Options, handshakes []model.Handshake, timeout time.Duration) (snaps []*surface.Snapshot, settled bool, closeAll func() error, err error) {
	if len(handshakes) == 0 {
		handshakes = []model.Handshake{opts.Handshake}
	}
	snaps = make([]*surface.Snapshot, len(handshakes))
	sessions := make([]*loader.Session, len(handshakes))
	settleErrs := make([]error, len(handshakes))
	var wg sync.WaitGroup
	for i, h := range handshakes {
		o := opts
		o.Handshake = h
		sessions[i] = open(cfg, o)
		wg.Go(func() { snaps[i], settleErrs[i] = settle(ctx, cfg, sessions[i], timeout) })
	}
	wg.Wait()
	closeAll = func() error {
		errs := make([]error, len(sessions))
		var wg sync.WaitGroup
		for i, s := range sessions {
			wg.Go(func() { errs[i] = s.Close() })
		}
		wg.Wait()
		return errors.Join(errs...)
	}
	if slices.Contains(settleErrs, errInterrupted) {
		return snaps, false, closeAll, errInterrupted
	}
	for _, err := range settleErrs {
		if err != nil {
			return snaps, false, closeAll, err
		}
	}
	return snaps, true, closeAll, nil
}
