package relay_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/recording"
	"github.com/mcplens/mcplens/relay"
)

// The relay's benchmarks run cat as the server, directly and through a
// relay process (this test binary as relayMain, recording to a file), with
// the same client: the difference is what the relay adds. Run them with
//
//	go test ./relay -run '^$' -bench . -benchtime 2000x
//
// and compare direct with relay: the targets are at most 50 µs
// added per frame at the median (a round trip is two frames), at least
// 90% of direct throughput for 1 MB frames, and at most 10 MB RSS per
// relay process (MB-maxrss).

// pingFrame is a typical small frame.
const pingFrame = `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello from the benchmark"}}}` + "\n"

// startCat starts cat, directly or through a relay, and returns its stdin,
// its stdout and a function that ends it and returns the relay's peak RSS
// in MB (0 for direct).
func startCat(b *testing.B, relayed bool) (io.WriteCloser, *bufio.Reader, func() float64) {
	b.Helper()
	cmd := exec.Command("cat")
	if relayed {
		cmd = relayCommand(b, filepath.Join(b.TempDir(), "rec.jsonl"), "cat")
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return in, bufio.NewReaderSize(out, 2<<20), func() float64 {
		rss := 0.0
		if relayed {
			rss = peakRSS(b, cmd.Process.Pid)
		}
		in.Close()
		io.Copy(io.Discard, out)
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		return rss
	}
}

// peakRSS returns the peak resident memory of process pid so far, in MB
// (VmHWM; the rusage of a child counts its parent's memory at the fork).
func peakRSS(b *testing.B, pid int) float64 {
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		b.Logf("no peak RSS: %v", err)
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.Fields(kb)[0])
			return float64(n) / 1024
		}
	}
	return 0
}

// BenchmarkRoundTrip sends one small frame and waits for it back: the
// median round trip, µs/rt-median, holds two frames' latency.
func BenchmarkRoundTrip(b *testing.B) {
	for _, mode := range []string{"direct", "relay"} {
		b.Run(mode, func(b *testing.B) {
			in, out, stop := startCat(b, mode == "relay")
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if _, err := io.WriteString(in, pingFrame); err != nil {
					b.Fatal(err)
				}
				if _, err := out.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "µs/rt-median")
			if rss := stop(); rss > 0 {
				b.ReportMetric(rss, "MB-maxrss")
			}
		})
	}
}

// BenchmarkThroughput sends 1 MB frames (JSON, so that the copy parses and
// records each) and reads them back; MB/s is the throughput.
func BenchmarkThroughput(b *testing.B) {
	frame := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 1_000_000-48) + `"}}` + "\n"
	for _, mode := range []string{"direct", "relay"} {
		b.Run(mode, func(b *testing.B) {
			in, out, stop := startCat(b, mode == "relay")
			b.SetBytes(int64(len(frame)))
			b.ResetTimer()
			go func() {
				for range b.N {
					if _, err := io.WriteString(in, frame); err != nil {
						return
					}
				}
			}()
			for i := range b.N {
				line, err := out.ReadSlice('\n')
				for err == bufio.ErrBufferFull {
					_, err = out.ReadSlice('\n')
					line = nil
				}
				if err != nil {
					b.Fatalf("frame %d: %v", i, err)
				}
				_ = line
			}
			b.StopTimer()
			if rss := stop(); rss > 0 {
				b.ReportMetric(rss, "MB-maxrss")
			}
		})
	}
}

// BenchmarkCopier hands a copier frames as a relay's copy reads them, in
// 64 KiB pieces, one after the other, each once the last is recorded (to
// a sink that keeps nothing): ns/op is what one frame costs the copy from
// its first byte to its record, allocs/op what it leaves to the garbage
// collector (a relay runs under a soft memory limit of
// relay.MemoryLimit, where garbage costs collections).
func BenchmarkCopier(b *testing.B) {
	for _, size := range []int{200, 64 << 10, 1 << 20} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			frame := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", size-48) + `"}}` + "\n")
			sink := discardSink(make(chan struct{}, 1))
			c := relay.NewCopier(relay.CopierOptions{Server: "bench"}, sink)
			s := c.Stream(recording.ServerToClient, relay.Lines)
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				for p := frame; len(p) > 0; {
					n := min(len(p), 64<<10)
					s.Write(p[:n])
					p = p[n:]
				}
				<-sink
			}
			s.End()
			c.Close()
			if n := c.Dropped(); n > 0 {
				b.Fatalf("%d frames dropped", n)
			}
		})
	}
}

// A discardSink keeps nothing, and tells of each line it is given.
type discardSink chan struct{}

func (d discardSink) WriteLine([]byte) { d <- struct{}{} }
func (d discardSink) Close() error     { return nil }
