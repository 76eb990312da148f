//go:build unix

package model_test

import (
	"encoding/json"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/model"
)

// toolsPerServer is the width of every benchmark surface: rows grow with the
// number of servers, as they do when a config gains servers.
const toolsPerServer = 200

// benchRows are the surface sizes every benchmark runs at: 10, 100 and
// 1000 servers of 200 tools.
var benchRows = []int{2_000, 20_000, 200_000}

var surfaces struct {
	sync.Mutex
	byRows map[string][]model.Catalogue
}

// surface returns the generated catalogues of rows rows. With full, every
// row carries its own description, schema and raw row, as loaded from a
// server; without, only names and descriptions (all a policy reads), which
// keeps 200,000 rows small enough to hold.
func surface(rows int, full bool) []model.Catalogue {
	key := strconv.Itoa(rows) + strconv.FormatBool(full)
	surfaces.Lock()
	defer surfaces.Unlock()
	if cats, ok := surfaces.byRows[key]; ok {
		return cats
	}
	if surfaces.byRows == nil {
		surfaces.byRows = map[string][]model.Catalogue{}
	}
	cats := make([]model.Catalogue, rows/toolsPerServer)
	for i := range cats {
		cats[i].Server = scale.Label(i)
		cats[i].Tools = make([]model.Tool, toolsPerServer)
		var generated []scale.Tool
		if full {
			generated = scale.Tools(i, toolsPerServer)
		}
		for j := range cats[i].Tools {
			t := &cats[i].Tools[j]
			t.Name, t.NameOK = scale.Name(i, j), true
			if full {
				st := generated[j]
				t.Description, t.InputSchema, t.Raw = st.Description, json.RawMessage(st.Schema), st.Row()
			}
		}
	}
	surfaces.byRows[key] = cats
	return cats
}

// BenchmarkApply applies every policy to surfaces of 2k, 20k and 200k rows:
// the cost of a policy or provider switch. Compare ns/op across sizes to
// see that it grows linearly. cpu-ms/op is the process's CPU time per apply
// (the garbage collector's included): on a busy machine it varies far less
// than ns/op.
func BenchmarkApply(b *testing.B) {
	for _, p := range model.Policies() {
		b.Run(p.Name, func(b *testing.B) {
			for _, rows := range benchRows {
				b.Run(strconv.Itoa(rows), func(b *testing.B) {
					cats := surface(rows, false)
					b.ReportAllocs()
					cpu := cpuTime()
					for b.Loop() {
						p.Apply(cats)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
					b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
				})
			}
		})
	}
}

// BenchmarkCollisions groups the active registry's collisions, which the
// collisions view does once per policy switch.
func BenchmarkCollisions(b *testing.B) {
	for _, name := range []string{"lionagi-legacy", "qwen", "symfonic"} {
		p, _ := model.PolicyNamed(name)
		b.Run(name, func(b *testing.B) {
			for _, rows := range benchRows {
				b.Run(strconv.Itoa(rows), func(b *testing.B) {
					reg := p.Apply(surface(rows, false))
					b.ReportAllocs()
					for b.Loop() {
						reg.Collisions()
					}
				})
			}
		})
	}
}

// BenchmarkFindingsLoaded scans rows as a server lists them (descriptions,
// ~1 KB schemas) for findings, which the findings view does once per
// surface change. 200,000 such rows would hold about half a gigabyte, so it
// stops at 20,000.
func BenchmarkFindingsLoaded(b *testing.B) {
	for _, rows := range benchRows[:2] {
		b.Run(strconv.Itoa(rows), func(b *testing.B) {
			cats := surface(rows, true)
			b.ReportAllocs()
			for b.Loop() {
				model.Findings(cats)
			}
		})
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
