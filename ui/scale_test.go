package ui_test

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/ui"
)

// scaleConfig is n scale servers of tools tools each, answering initialize
// after delay.
func scaleConfig(tb testing.TB, n, tools int, delay time.Duration) *config.Config {
	bin := scale.Path(tb)
	cfg := &config.Config{Path: "scale config"}
	for i := range n {
		cfg.Servers = append(cfg.Servers, config.ServerSpec{Label: scale.Label(i), Command: bin, Args: scale.Args(i, tools, delay)})
	}
	return cfg
}

// TestFirstFrameBeforeAnyAnswer draws the interface for servers that take
// an hour to answer initialize: the first frame lists every one of them,
// connecting, without waiting for any.
func TestFirstFrameBeforeAnyAnswer(t *testing.T) {
	cfg := scaleConfig(t, 3, 5, time.Hour)
	sess := loader.Open(cfg, loader.Options{})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "scale config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	got := screen(m)
	for _, s := range cfg.Servers {
		if !strings.Contains(got, s.Label) {
			t.Errorf("first frame does not list %s:\n%s", s.Label, got)
		}
	}
	if n := strings.Count(got, "connecting"); n != len(cfg.Servers) {
		t.Errorf("first frame shows %d servers connecting, want %d:\n%s", n, len(cfg.Servers), got)
	}
}

// TestRowsFillInAsServersArrive opens a server that answers at once beside
// one that takes an hour: the first's rows are drawn while the second is
// still connecting.
func TestRowsFillInAsServersArrive(t *testing.T) {
	cfg := scaleConfig(t, 2, 5, 0)
	cfg.Servers[1].Args = scale.Args(1, 5, time.Hour)
	sess := loader.Open(cfg, loader.Options{})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "scale config", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(screen(m), "advertised 5") {
		if time.Now().After(deadline) {
			t.Fatalf("%s never listed its tools:\n%s", cfg.Servers[0].Label, screen(m))
		}
		m, _ = m.Update(ui.NextEvents(sess))
	}
	got := screen(m)
	if !strings.Contains(got, scale.Name(0, 1)) {
		t.Errorf("%s's rows are not drawn:\n%s", cfg.Servers[0].Label, got)
	}
	if !strings.Contains(got, "connecting") {
		t.Errorf("%s is not shown connecting:\n%s", cfg.Servers[1].Label, got)
	}
}

// TestEventBurstIsOneUpdate checks that a burst of events delivered at
// once draws what the same events draw one by one.
func TestEventBurstIsOneUpdate(t *testing.T) {
	specs, events := benchSurface(2_000)
	burst := loaded(2_000)
	var one tea.Model = ui.New(ui.Options{Title: "bench", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}})
	one, _ = one.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	for _, ev := range events {
		one, _ = one.Update(ui.EventMsg(ev))
	}
	for _, keys := range [][]string{nil, {"G"}, {"2"}, {"3"}, {"4"}, {"5"}, {"p"}} {
		one, burst = ui.Settle(press(one, keys...)), ui.Settle(press(burst, keys...))
		if a, b := screen(one), screen(burst); a != b {
			t.Fatalf("after %v, a burst draws\n%s\nbut the same events one by one draw\n%s", keys, b, a)
		}
	}
}

// BenchmarkMemory loads 20,000 tools (100 scale servers of 200 tools, each
// with a ~1 KB schema) through real processes into a session and the
// interface, draws every view once (computing every policy's registry and
// the findings), and reports the process's peak resident set (VmHWM) in MB,
// once loaded and at the end. It runs under the memory limit mcplens sets
// (ui.MemoryLimit) unless GOMEMLIMIT is set (GOMEMLIMIT=off: none). Run it
// alone, in its own process:
//
//	go test ./ui -run XXX -bench BenchmarkMemory -benchtime 1x
func BenchmarkMemory(b *testing.B) {
	cfg := scaleConfig(b, 100, 200, 0)
	if os.Getenv("GOMEMLIMIT") == "" { // as mcplens runs the interface
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(ui.MemoryLimit))
	}
	var loadedRSS float64
	for b.Loop() {
		sess := loader.Open(cfg, loader.Options{})
		var m tea.Model = ui.New(ui.Options{Title: "scale config", Servers: cfg.Servers, Backend: sess})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		ready := 0
		for ready < len(cfg.Servers) {
			msg := ui.NextEvents(sess)
			for _, ev := range ui.Events(msg) {
				if !ev.Frames && (ev.State == mcpsession.Ready || ev.State == mcpsession.Failed) {
					ready++
				}
			}
			m, _ = m.Update(msg)
		}
		_ = m.View()
		loadedRSS = peakRSS(b)
		for _, v := range views {
			m = settled(press(m, v.key))
			_ = m.View()
			b.Logf("peak RSS after opening %s: %.1f MB", v.name, peakRSS(b))
		}
		m = press(m, "w")
		_ = m.View()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
		if err := sess.Close(); err != nil {
			b.Fatal(err)
		}
		runtime.KeepAlive(m)
	}
	b.ReportMetric(loadedRSS, "loaded-peak-RSS-MB")
	b.ReportMetric(peakRSS(b), "peak-RSS-MB")
}

// peakRSS reads the process's peak resident set size, VmHWM, in MB.
func peakRSS(tb testing.TB) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Fatalf("reading the peak resident set: %v", err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				tb.Fatal(err)
			}
			return float64(kb) / 1024
		}
	}
	tb.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestLargeSurfaceDerivesInBackground opens the compare and findings views
// of a surface large enough to compute them off the UI goroutine: each
// says it is computing until its result arrives, a result for a surface
// that changed meanwhile is dropped and computed again, and the rows then
// drawn are those of the surface as it is.
func TestLargeSurfaceDerivesInBackground(t *testing.T) {
	specs, events := benchSurface(6_000)
	var m tea.Model = ui.New(ui.Options{Title: "bench", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m, _ = m.Update(ui.EventsMsg(events[:len(events)-1]...))
	for _, v := range []struct{ key, computing, want string }{
		{"3", "applying every policy", scale.Name(0, 0)},
		{"5", "looking for findings", "lookalike"},
	} {
		var stale tea.Cmd
		m, stale = m.Update(ui.KeyPress(v.key))
		if got := screen(m); !strings.Contains(got, v.computing) {
			t.Fatalf("view %s before its rows are computed:\n%s", v.key, got)
		}
		if stale == nil {
			t.Fatalf("view %s: nothing to compute", v.key)
		}
		if ui.Derive(m) != nil {
			t.Errorf("view %s: a second computation started while the first runs", v.key)
		}
		// The last server arrives while the computation runs: its result
		// is for a surface that is gone.
		m, _ = m.Update(ui.EventMsg(events[len(events)-1]))
		m, _ = m.Update(stale())
		if got := screen(m); !strings.Contains(got, v.computing) {
			t.Errorf("view %s shows a result computed before the last server arrived:\n%s", v.key, got)
		}
		m = ui.Settle(m)
		got := screen(m)
		if strings.Contains(got, v.computing) || !strings.Contains(got, v.want) {
			t.Errorf("view %s once computed lacks %q:\n%s", v.key, v.want, got)
		}
		m, _ = m.Update(ui.EventMsg(events[0])) // back to computing for the next view
	}
}
