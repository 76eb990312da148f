package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

// bigResult is a call's result of n lines of text, as a server sends it.
func bigResult(n int) callDoneMsg {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %06d: the quick brown fox jumps over the lazy dog, and then some more words to wrap\n", i)
	}
	text, _ := json.Marshal(b.String())
	result := json.RawMessage(`{"content":[{"type":"text","text":` + string(text) + `}]}`)
	return callDoneMsg{result: mcpsession.CallResult{Server: "s", Wire: "t", Result: result,
		Response: []byte(`{"jsonrpc":"2.0","id":2,"result":` + string(result) + `}`)}}
}

func benchEnv() *env {
	return &env{c: common{width: 120, height: 40, styles: DefaultStyles(true), keys: DefaultKeyMap()}}
}

// BenchmarkResultReader opens the reader on results of 1 000 to 100 000
// lines (about 100 KB to 10 MB of text): render, wrap and first frame.
func BenchmarkResultReader(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		msg := bigResult(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := benchEnv()
			for b.Loop() {
				v := &callView{msg: msg}
				_ = v.reader(e).View()
			}
		})
	}
}

// BenchmarkResultPane draws the result pane of a large result, as every
// frame does while it is shown: the wrapped lines are cached.
func BenchmarkResultPane(b *testing.B) {
	e := benchEnv()
	v := &callView{msg: bigResult(100_000)}
	box := func(title string, lines []string, h int) string {
		return strings.Join(lines[:min(h, len(lines))], "\n")
	}
	for b.Loop() {
		_ = v.view(e.c, 14, box)
	}
}
