//go:build unix

package cli

import (
	"context"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
)

// TestLockListChanged changes the server's tools mid-session: the loader
// relists on tools/list_changed, and the new tools differ from the pin
// taken at connect by exactly the fields that changed.
func TestLockListChanged(t *testing.T) {
	cfg, err := config.Load(mutatingConfig(t, t.TempDir(), "1"))
	if err != nil {
		t.Fatal(err)
	}
	s := loader.Open(cfg, loader.Options{})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	snap := surface.New(cfg.Servers, cfg.Findings)
	err = surface.Collect(ctx, s.Events(), snap)
	if st := snap.Servers[0]; err != nil || st.State != mcpsession.Ready {
		t.Fatalf("connecting: %v, state %v (%s)", err, st.State, st.Err)
	}
	lock := surface.UpdatedLock(nil, snap)

	if err := syscall.Kill(s.Pid("m"), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	st := &snap.Servers[0]
	for st.State != mcpsession.Ready || len(st.Tools) != 3 || st.Tools[2].Name != "upload" {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				t.Fatal("events closed before the relisting")
			}
			snap.Apply(ev)
		case <-ctx.Done():
			t.Fatalf("no relisting after tools/list_changed; last tools %v", st.Tools)
		}
	}
	r := report.Build(cfg.Path, surface.Assess(snap, surface.Options{Policy: model.Policies()[0], Lock: lock}))
	if got := withoutHashes(t, r.Servers[0].Lock.Changes); !reflect.DeepEqual(got, wantDiff) {
		t.Errorf("changes after list_changed =\n%s\nwant\n%s", js(got), js(wantDiff))
	}
	d := model.Diff(lock.Servers["m"], model.Pin(st.Endpoint, st.Tools))
	if c, ok := d.Tool("search"); !ok || len(c.Fields) != 3 || c.Fields[0].Path != "description" {
		t.Errorf("model.Diff: search = %+v", c)
	}
}
