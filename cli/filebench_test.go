package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/internal/testkit/peak"
	"github.com/mcplens/mcplens/internal/testkit/scale"
)

// BenchmarkFileReaders runs the mcplens binary on big recordings made by
// internal/testkit/scale and reports, besides the time of a run, its peak RSS as
// the kernel accounted it (peak-MiB, the largest of the runs): a recording
// of 50,000 calls of 4.5 KB (242 MB) and recordings of 5,000 and 50,000
// servers (4.4 and 44 MB), read by tap har, check and diff (a recording
// against itself). The ratio of the 50,000 and 5,000 rows is how a
// command grows with the servers.
//
//	go test . -run '^$' -bench BenchmarkFileReaders -benchtime 1x
func BenchmarkFileReaders(b *testing.B) {
	dir := b.TempDir()
	lens := hostile.Build(b, dir, ".", "mcplens")
	rec := func(name string, r scale.Recording) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Write(f); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		return path
	}
	calls := rec("calls.jsonl", scale.Recording{Servers: 1, Tools: 200, Calls: 50000, Result: 4500})
	labels5k := rec("labels5k.jsonl", scale.Recording{Servers: 5000})
	labels50k := rec("labels50k.jsonl", scale.Recording{Servers: 50000})
	for _, bb := range []struct {
		name string
		args []string
	}{
		{"tap-har/242MB-calls", []string{"tap", "har", calls}},
		{"check/242MB-calls", []string{"check", calls, "--fail-on", "never"}},
		{"tap-har/5000-servers", []string{"tap", "har", labels5k}},
		{"tap-har/50000-servers", []string{"tap", "har", labels50k}},
		{"check/5000-servers", []string{"check", labels5k, "--fail-on", "never"}},
		{"check/50000-servers", []string{"check", labels50k, "--fail-on", "never"}},
		{"diff/5000-servers", []string{"diff", labels5k, labels5k}},
		{"diff/50000-servers", []string{"diff", labels50k, labels50k}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			var most int64
			for b.Loop() {
				cmd := exec.Command(lens, bb.args...)
				rss, err := peak.Run(cmd)
				if code := exitCode(err); code != 0 {
					b.Fatalf("mcplens %v: exit %d (%v)", bb.args, code, err)
				}
				most = max(most, rss)
			}
			b.ReportMetric(float64(most)/(1<<20), "peak-MiB")
		})
	}
}
