package settle

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

// ErrInterrupted is returned by Session and Each when their context
// (the signals) ended first.
var ErrInterrupted = errors.New("interrupted")

// Session waits until every server of session (opened on cfg) is Ready or
// Failed, and returns the snapshot: the connect-and-settle check and call
// share. err is ErrInterrupted when ctx (the signals) ended first, or says
// that servers were still connecting after the loader's timeout and some
// slack; the snapshot then holds them as they were.
func Session(ctx context.Context, cfg *config.Config, session *loader.Session, timeout time.Duration) (*surface.Snapshot, error) {
	wait := settleWait(cfg, timeout)
	settleCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	snap := surface.New(cfg.Servers, cfg.Findings)
	err := surface.Collect(settleCtx, session.Events(), snap)
	switch {
	case ctx.Err() != nil:
		return snap, ErrInterrupted
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

// Each opens a session on cfg per handshake (loader.Open with opts,
// its Handshake replaced; opts as they are when handshakes is empty: the
// caller sets the guard and the HTTP authorization there), settles them all
// at once (Session), and returns their snapshots in order, with closeAll, which
// shuts every session down at once and returns their errors joined: the
// caller prints what it has first, so that a server slow to exit never
// delays the output, then calls closeAll before it exits. err is the first
// error of a settle (ErrInterrupted first); settled reports whether every
// session settled.
func Each(ctx context.Context, cfg *config.Config, opts loader.Options, handshakes []model.Handshake, timeout time.Duration) (snaps []*surface.Snapshot, settled bool, closeAll func() error, err error) {
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
		sessions[i] = loader.Open(cfg, o)
		wg.Go(func() { snaps[i], settleErrs[i] = Session(ctx, cfg, sessions[i], timeout) })
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
	if slices.Contains(settleErrs, ErrInterrupted) {
		return snaps, false, closeAll, ErrInterrupted
	}
	for _, err := range settleErrs {
		if err != nil {
			return snaps, false, closeAll, err
		}
	}
	return snaps, true, closeAll, nil
}
