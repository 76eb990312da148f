package loader_test

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader"
)

// BenchmarkGuardCost connects 50 scale servers (answering initialize after
// 200 ms) with and without a process guard, alternating the two run by run
// so both see the same load, and reports the median connect of each and
// the difference: what the guard costs to start 50 servers.
func BenchmarkGuardCost(b *testing.B) {
	const servers, runs = 50, 9
	cfg := scaleConfig(b, servers, 20, 200*time.Millisecond)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	connect := func(guarded bool) time.Duration {
		var guard *procguard.Guard
		if guarded {
			guard = procguard.New(exe, procguard.Subcommand)
		}
		start := time.Now()
		s := loader.Open(cfg, loader.Options{Guard: guard})
		awaitReady(b, s, cfg, 20)
		took := time.Since(start)
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		if err := guard.Close(); err != nil {
			b.Fatal(err)
		}
		return took
	}
	var with, without []time.Duration
	for b.Loop() {
		for range runs {
			without = append(without, connect(false))
			with = append(with, connect(true))
		}
	}
	median := func(d []time.Duration) time.Duration {
		d = slices.Clone(d)
		slices.Sort(d)
		return d[len(d)/2]
	}
	mw, mo := median(with), median(without)
	b.ReportMetric(float64(mo.Microseconds())/1000, "ms-unguarded")
	b.ReportMetric(float64(mw.Microseconds())/1000, "ms-guarded")
	b.ReportMetric(100*float64(mw-mo)/float64(mo), "%-cost")
}
