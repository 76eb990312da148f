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

	"github.com/mcplens/mcplens/internal/scale"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/ui"
)

// scaleConfig is n scale servers of tools tools each, answering initialize
// after delay.
func scaleConfig(tb testing.TB, n, tools int, delay time.Duration) *loader.Config {
	bin := scale.Path(tb)
	cfg := &loader.Config{Path: "scale config"}
	for i := range n {
		cfg.Servers = append(cfg.Servers, loader.ServerSpec{Label: scale.Label(i), Command: bin, Args: scale.Args(i, tools, delay)})
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
	var m tea.Model = ui.New("scale config", cfg.Servers, sess)
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
	var m tea.Model = ui.New("scale config", cfg.Servers, sess)
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
	one := loaded(2_000)
	var burst tea.Model = ui.New("bench", specs, benchBackend{events: make(chan loader.Event)})
	burst, _ = burst.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	burst, _ = burst.Update(ui.EventsMsg(events...))
	for _, keys := range [][]string{nil, {"G"}, {"2"}, {"3"}, {"4"}, {"5"}, {"p"}} {
		one, burst = press(one, keys...), press(burst, keys...)
		if a, b := screen(one), screen(burst); a != b {
			t.Fatalf("after %v, a burst draws\n%s\nbut the same events one by one draw\n%s", keys, b, a)
		}
	}
}

// BenchmarkMemory loads 20,000 tools (100 scale servers of 200 tools, each
// with a ~1 KB schema) through real processes into a session and the
// interface, draws every view once (computing every policy's registry and
// the findings), and reports the process's peak resident set (VmHWM) in MB.
// Run it alone, in its own process:
//
//	go test ./ui -run XXX -bench BenchmarkMemory -benchtime 1x
func BenchmarkMemory(b *testing.B) {
	cfg := scaleConfig(b, 100, 200, 0)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(ui.MemoryLimit)) // as mcplens runs the interface
	var loadedRSS float64
	for b.Loop() {
		sess := loader.Open(cfg, loader.Options{})
		var m tea.Model = ui.New("scale config", cfg.Servers, sess)
		m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		ready := 0
		for ready < len(cfg.Servers) {
			msg := ui.NextEvents(sess)
			for _, ev := range ui.Events(msg) {
				if !ev.Wire && (ev.State == loader.Ready || ev.State == loader.Failed) {
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
