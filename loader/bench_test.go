package loader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// The benchmarks here run real server processes (testdata/servers/scale,
// built once per test binary) over real pipes.

// scaleConfig is n scale servers, each advertising tools tools and
// answering initialize after delay.
func scaleConfig(tb testing.TB, n, tools int, delay time.Duration) *config.Config {
	bin := scale.Path(tb)
	cfg := &config.Config{Path: fmt.Sprintf("%d scale servers", n)}
	for i := range n {
		cfg.Servers = append(cfg.Servers, config.ServerSpec{
			Label:   scale.Label(i),
			Command: bin,
			Args:    scale.Args(i, tools, delay),
		})
	}
	return cfg
}

// awaitReady reads events until every server of cfg is ready, failing on
// a server that fails or lists other than tools tools (any number when
// tools is negative).
func awaitReady(tb testing.TB, s *loader.Session, cfg *config.Config, tools int) {
	tb.Helper()
	pending := len(cfg.Servers)
	deadline := time.After(60 * time.Second)
	for pending > 0 {
		select {
		case ev, ok := <-s.Events():
			switch {
			case !ok:
				tb.Fatal("events closed before every server was ready")
			case ev.Frames:
			case ev.State == mcpsession.Failed:
				tb.Fatalf("%s failed: %s", ev.Server, ev.Err)
			case ev.State == mcpsession.Ready && tools >= 0 && len(ev.Tools) != tools:
				tb.Fatalf("%s listed %d tools, want %d", ev.Server, len(ev.Tools), tools)
			case ev.State == mcpsession.Ready:
				pending--
			}
		case <-deadline:
			tb.Fatalf("%d server(s) not ready after 60s", pending)
		}
	}
}

// BenchmarkConnect opens a config of 1, 10 and 50 scale servers that each
// answer initialize after 200 ms, and waits until every one has listed its
// 20 tools. Connecting is concurrent when ns/op stays near 200 ms however
// many servers there are. The 50x200 case lists 200 tools each (10,000 in
// all, ~13 MB of tools/list).
func BenchmarkConnect(b *testing.B) {
	const delay = 200 * time.Millisecond
	for _, c := range []struct {
		name         string
		servers, per int
		lean         bool
	}{{"1", 1, 20, false}, {"10", 10, 20, false}, {"50", 50, 20, false}, {"50x200", 50, 200, false}, {"50/lean", 50, 20, true}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := scaleConfig(b, c.servers, c.per, delay)
			if c.lean {
				for i := range cfg.Servers {
					cfg.Servers[i].Command, cfg.Servers[i].Args = scale.LeanCommand(b, i, c.per, delay)
				}
			}
			exe, err := os.Executable()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var cpu time.Duration // mcplens's own, the servers' excluded
			for b.Loop() {
				since := cpuTime()
				// As mcplens runs: a guard per run, started with the first server.
				guard := procguard.New(exe, procguard.Subcommand)
				s := loader.Open(cfg, loader.Options{Guard: guard})
				awaitReady(b, s, cfg, c.per)
				cpu += cpuTime() - since
				b.StopTimer()
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				if err := guard.Close(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*c.servers), "cpu-µs/server")
		})
	}
}

// callArgs are the arguments of every benchmarked call.
var callArgs = json.RawMessage(`{"id":"ISSUE-1234","limit":20,"include_archived":false}`)

// BenchmarkCall makes one tools/call round trip to a local scale server:
// through the session's tap (tap), and through a plain mcp-go stdio client
// on the same server with nothing in between (notap). The tap's overhead
// is the difference. On a busy machine the two runs can see different
// load, so paired alternates the two clients call by call and reports the
// median round trip of each and the overhead between the medians.
func BenchmarkCall(b *testing.B) {
	b.Run("tap", func(b *testing.B) {
		call := tapClient(b)
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			call()
		}
		reportCPU(b, cpu)
	})
	b.Run("notap", func(b *testing.B) {
		call := plainClient(b)
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			call()
		}
		reportCPU(b, cpu)
	})
	b.Run("paired", func(b *testing.B) {
		tap, plain := tapClient(b), plainClient(b)
		var tapped, direct []time.Duration
		for b.Loop() {
			start := time.Now()
			tap()
			mid := time.Now()
			plain()
			tapped, direct = append(tapped, mid.Sub(start)), append(direct, time.Since(mid))
		}
		t, d := median(tapped), median(direct)
		b.ReportMetric(float64(t.Nanoseconds())/1e3, "tap-µs")
		b.ReportMetric(float64(d.Nanoseconds())/1e3, "notap-µs")
		b.ReportMetric(100*(float64(t)/float64(d)-1), "overhead-%")
	})
}

// tapClient returns a function making one call through a session.
func tapClient(b *testing.B) func() {
	cfg := scaleConfig(b, 1, 200, 0)
	s := loader.Open(cfg, loader.Options{})
	b.Cleanup(func() { s.Close() })
	awaitReady(b, s, cfg, 200)
	tool, label := scale.Name(0, 1), cfg.Servers[0].Label
	return func() {
		res, err := s.Call(context.Background(), label, tool, callArgs)
		if err != nil || res.IsError {
			b.Fatalf("call: %v, %s", err, res.Response)
		}
	}
}

// plainClient returns a function making one call through an mcp-go stdio
// client of its own, on the same server. Its request is the one a Session
// sends, progress token included, so that the tap is all that differs.
func plainClient(b *testing.B) func() {
	cl, err := client.NewStdioMCPClient(scale.Path(b), nil, scale.Args(0, 200, 0)...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cl.Close() })
	ctx := context.Background()
	if _, err := cl.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: loader.ProtocolVersion,
		ClientInfo:      mcp.Implementation{Name: "bench", Version: "1"},
	}}); err != nil {
		b.Fatal(err)
	}
	seq := 0
	return func() {
		seq++
		req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: scale.Name(0, 1), RawArguments: callArgs,
			Meta: &mcp.Meta{ProgressToken: fmt.Sprintf("mcplens-%d", seq)}}}
		res, err := cl.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatalf("call: %v", err)
		}
	}
}

// median returns the middle of ds, sorting it.
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// reportCPU reports the client's CPU time per call since since: on a busy
// machine it varies less than the round trip, and it is all the tap adds.
func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64((cpuTime()-since).Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkClose shuts down a session whose one server ignores stdin
// closing and SIGTERM (hostile mode stubborn), so Close escalates to
// SIGKILL: the worst case of shutdown.
func BenchmarkClose(b *testing.B) {
	cfg := &config.Config{Path: "stubborn", Servers: []config.ServerSpec{hostile.Spec(b, "stubborn", "stubborn")}}
	for b.Loop() {
		b.StopTimer()
		s := loader.Open(cfg, loader.Options{})
		awaitReady(b, s, cfg, -1)
		b.StartTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
}

// TestLeanServerServesTheScaleSurface holds the lean server (the C one
// BenchmarkConnect/50/lean starts) to the scale server it stands in for:
// through mcplens, the same rows byte for byte, and a call that reaches it.
func TestLeanServerServesTheScaleSurface(t *testing.T) {
	const tools = 30
	cfg := scaleConfig(t, 2, tools, 0)
	cfg.Servers[1].Label = scale.Label(0) + "-lean"
	cfg.Servers[1].Command, cfg.Servers[1].Args = scale.LeanCommand(t, 0, tools, 0)
	s := loader.Open(cfg, loader.Options{})
	t.Cleanup(func() { s.Close() })
	ready := map[string]mcpsession.Event{}
	deadline := time.After(20 * time.Second)
	for len(ready) < 2 {
		select {
		case ev := <-s.Events():
			switch {
			case ev.State == mcpsession.Failed:
				t.Fatalf("%s failed: %s", ev.Server, ev.Err)
			case ev.State == mcpsession.Ready && !ev.Frames:
				ready[ev.Server] = ev
			}
		case <-deadline:
			t.Fatal("the two servers were not ready within 20s")
		}
	}
	scaled, lean := ready[cfg.Servers[0].Label].Tools, ready[cfg.Servers[1].Label].Tools
	if len(scaled) != tools || len(lean) != tools {
		t.Fatalf("listed %d and %d tools, want %d each", len(scaled), len(lean), tools)
	}
	for i := range scaled {
		if !bytes.Equal(scaled[i].Raw, lean[i].Raw) {
			t.Errorf("row %d: lean lists %s, scale lists %s", i, lean[i].Raw, scaled[i].Raw)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.Call(ctx, cfg.Servers[1].Label, scale.Name(0, 1), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "received tool " + scale.Name(0, 1); !bytes.Contains(res.Response, []byte(want)) {
		t.Errorf("the lean server answered %s, want it to say %q", res.Response, want)
	}
}
