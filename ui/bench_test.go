package ui_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/scale"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// The view benchmarks feed a Model the events a session of many servers
// would send, through a backend that only holds them: rendering is what is
// measured, not the transport. Every server advertises 200 tools, so rows
// grow with servers, as they do when a config gains servers.

const benchTools = 200

var benchRows = []int{2_000, 20_000, 200_000}

// A benchBackend is a Backend with nothing behind it.
type benchBackend struct{ events chan mcpsession.Event }

func (b benchBackend) Events() <-chan mcpsession.Event    { return b.events }
func (benchBackend) FrameLog(string) *mcpsession.FrameLog { return nil }
func (benchBackend) Stderr(string) string                 { return "" }
func (benchBackend) Call(context.Context, string, string, json.RawMessage) (mcpsession.CallResult, error) {
	return mcpsession.CallResult{}, nil
}

// benchSurface returns the specs and Ready events of rows/200 servers. The
// tools carry generated names and descriptions and one shared ~1 KB schema:
// rendering reads no more, and 200,000 rows of distinct schemas would not
// fit a benchmark's memory.
func benchSurface(rows int) ([]config.ServerSpec, []mcpsession.Event) {
	schema := json.RawMessage(scale.Schema(0, 0))
	n := rows / benchTools
	specs := make([]config.ServerSpec, n)
	events := make([]mcpsession.Event, n)
	for i := range n {
		label := scale.Label(i)
		specs[i] = config.ServerSpec{Label: label, Command: "scale"}
		tools := make([]model.Tool, benchTools)
		for j := range tools {
			name := scale.Name(i, j)
			tools[j] = model.Tool{Name: name, NameOK: true, InputSchema: schema,
				Description: "Runs " + name + " against the " + label + " service and returns the result as JSON."}
		}
		events[i] = mcpsession.Event{Server: label, State: mcpsession.Ready, Protocol: loader.ProtocolVersion,
			ServerName: label, ServerVersion: "1.0.0", Tools: tools}
	}
	return specs, events
}

// loaded returns a 200×60 Model that has received every event, in one
// burst.
func loaded(rows int) tea.Model {
	specs, events := benchSurface(rows)
	var m tea.Model = ui.New(ui.Options{Title: "bench", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m, _ = m.Update(ui.EventsMsg(events...))
	return m
}

// views are the keys that open each view, by view name.
var views = []struct{ name, key string }{
	{"servers", "1"}, {"registry", "2"}, {"compare", "3"}, {"collisions", "4"}, {"findings", "5"},
}

// BenchmarkView draws one frame of each view at 200×60, after the view has
// been opened once (what it computes on first open is in BenchmarkOpen).
// ns/op should not grow with rows: only the visible rows are rendered.
func BenchmarkView(b *testing.B) {
	for _, v := range views {
		b.Run(v.name, func(b *testing.B) {
			for _, rows := range benchRows {
				b.Run(strconv.Itoa(rows), func(b *testing.B) {
					m := settled(press(loaded(rows), v.key, "G", "k"))
					_ = m.View() // the first frame computes what the view derives
					b.ReportAllocs()
					for b.Loop() {
						_ = m.View()
					}
				})
			}
		})
	}
}

// BenchmarkOpen opens a view for the first time on a fresh surface and
// draws it: everything the view derives from the surface is computed.
func BenchmarkOpen(b *testing.B) {
	for _, v := range views {
		b.Run(v.name, func(b *testing.B) {
			for _, rows := range benchRows {
				b.Run(strconv.Itoa(rows), func(b *testing.B) {
					specs, events := benchSurface(rows)
					b.ReportAllocs()
					for b.Loop() {
						b.StopTimer()
						var m tea.Model = ui.New(ui.Options{Title: "bench", Servers: specs, Backend: benchBackend{events: make(chan mcpsession.Event)}})
						m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
						m, _ = m.Update(ui.EventsMsg(events...))
						b.StartTimer()
						_ = settled(press(m, v.key)).View()
					}
				})
			}
		})
	}
}

// BenchmarkUpdate measures what the interface does on the UI goroutine
// for one message, frame included: a policy switch (p), and one server
// relisting its tools (a Ready event for a server already loaded).
func BenchmarkUpdate(b *testing.B) {
	for _, rows := range benchRows {
		b.Run("policy/"+strconv.Itoa(rows), func(b *testing.B) {
			m := loaded(rows)
			b.ReportAllocs()
			for b.Loop() {
				m, _ = m.Update(ui.KeyPress("p"))
				_ = m.View()
			}
		})
		b.Run("event/"+strconv.Itoa(rows), func(b *testing.B) {
			_, events := benchSurface(rows)
			m := loaded(rows)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m, _ = m.Update(ui.EventMsg(events[i%len(events)]))
				_ = m.View()
				i++
			}
		})
	}
}

// settled returns m once what it computes in the background is in.
func settled(m tea.Model) tea.Model { return ui.Settle(m) }
