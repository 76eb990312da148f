// Package surface owns the live state of a run: what every configured
// server has said so far (a Snapshot, folded from the loader's events by
// Snapshot.Apply, the only fold of those events in mcplens), and what a
// naming policy, a set of provider profiles and a lock make of it (an
// Assessment: the registry, each server's status, and the one list of
// findings of every kind). The interface, check, call and the report all
// read these two values; none of them folds events or decides a status or a
// finding. Beside them: the lock file, read and written (ReadLock,
// WriteLock). It must not import ui, report or cli, nor loader: the
// connect-and-settle step that fills a snapshot from a live session is
// package surface/settle.
//
//	snap := surface.New(cfg.Servers, cfg.Findings)
//	err := surface.Collect(ctx, session.Events(), snap)
//	a := surface.Assess(snap, surface.Options{Policy: policy, Profiles: model.DefaultProfiles()})
//	for i, v := range a.Servers {
//		fmt.Println(snap.Servers[i].Label(), v.Status)
//	}
//	for _, f := range a.Findings {
//		fmt.Println(f.Severity, f.Kind, f.Server, f.Evidence)
//	}
package surface
