package loader_test

import (
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
)

// BenchmarkCloseWriting measures Close on servers that go on writing or
// ignore their stdin closing, as real ones do (server-everything, once it
// has asked for roots/list, ends only on SIGTERM): "list-changed-flood"
// writes while it is closed and exits on its stdin's end; "stop-reading"
// ends on SIGTERM, after the stdin grace. Once the child is reaped, Close
// does not wait for the end of its stdout, which nobody reads after Close.
func BenchmarkCloseWriting(b *testing.B) {
	for _, mode := range []string{"list-changed-flood", "stop-reading"} {
		b.Run(mode, func(b *testing.B) {
			cfg := &config.Config{Path: mode, Servers: []config.ServerSpec{hostile.Spec(b, mode, mode)}}
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
		})
	}
}
