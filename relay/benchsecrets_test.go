package relay_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/recording"
	"github.com/mcplens/mcplens/relay"
)

// BenchmarkCopierSecrets is BenchmarkCopier with what a tap masks in a
// real session: 24 values from its environment, and frames of text that
// mention tokens, hooks and Bearer without holding any (so that every
// prefilter lets them through to the slower checks).
func BenchmarkCopierSecrets(b *testing.B) {
	var secrets []string
	for i := range 24 {
		secrets = append(secrets, fmt.Sprintf("s3cr3t-value-%02d-%x", i, i*7919))
	}
	line := `the Bearer of ghp_ tokens posts to hooks.slack.com/services/ a user@host and sk- keys; `
	for _, size := range []int{200, 64 << 10} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			text := strings.Repeat(line, size/len(line)+1)[:size-48]
			frame := []byte(`{"jsonrpc":"2.0","id":1,"result":{"text":"` + text + `"}}` + "\n")
			sink := discardSink(make(chan struct{}, 1))
			c := relay.NewCopier(relay.CopierOptions{Server: "bench", Secrets: secrets}, sink)
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
		})
	}
}
