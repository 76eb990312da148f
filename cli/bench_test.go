package cli

import (
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

// BenchmarkCheckDemo runs the mcplens binary as a user would, `mcplens check`
// on the built-in demo (three demo servers, each the binary itself), and
// reports the median wall time of a run, process start to exit, beside the
// mean (ns/op). The report says lost tools, so each run exits 1.
//
//	go test -run XXX -bench BenchmarkCheckDemo -benchtime 20x
func BenchmarkCheckDemo(b *testing.B) {
	bin := hostile.Build(b, b.TempDir(), ".", "mcplens")
	var runs []time.Duration
	for b.Loop() {
		start := time.Now()
		out, err := exec.Command(bin, "check").CombinedOutput()
		runs = append(runs, time.Since(start))
		if code := exitCode(err); code != exitFound {
			b.Fatalf("mcplens check: exit %d (%v), want %d:\n%s", code, err, exitFound, out)
		}
	}
	slices.Sort(runs)
	b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "median-ms")
}

// exitCode is the exit status err reports, 0 for none.
func exitCode(err error) int {
	if exitErr, ok := err.(*exec.ExitError); ok {
		return exitErr.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
