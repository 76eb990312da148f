package ui_test

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// askSizes are the sizes of the questions the ask benchmarks draw.
var askSizes = []struct {
	name string
	size int
}{{"256KiB", 256 << 10}, {"1MiB", 1 << 20}, {"4MiB", 4 << 20}}

// bigText is size bytes of prose in lines of about 70 characters.
func bigText(size int) string {
	line := "All work and no play makes a very long question for the model.\n"
	return strings.Repeat(line, size/len(line)+1)[:size]
}

// bigQuestion is a sampling request or an elicitation whose text is size
// bytes.
func bigQuestion(method string, size int) loader.Question {
	var params any
	if method == model.MethodCreateMessage {
		params = map[string]any{"maxTokens": 100, "messages": []any{map[string]any{
			"role": "user", "content": map[string]any{"type": "text", "text": bigText(size)}}}}
	} else {
		params = map[string]any{"message": bigText(size), "requestedSchema": json.RawMessage(bookingSchema)}
	}
	b, _ := json.Marshal(params)
	return loader.Question{Server: "big", Method: method, Params: b}
}

// fresh returns a 200×60 interface with nothing asked yet.
func fresh() tea.Model {
	var m tea.Model = ui.New(ui.Options{Title: "bench", Backend: benchBackend{events: make(chan mcpsession.Event)}})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	return m
}

// question returns the message that brings q to the interface, as the
// program gets it: decoded on the goroutine that asks it.
func questionMsg(b *testing.B, q loader.Question) tea.Msg {
	qs := ui.NewQuestions()
	go qs.Ask(b.Context(), q)
	return ui.NextQuestion(qs)
}

// BenchmarkAsk measures what a big question costs the event loop (Update
// and View, nothing else): its arrival (Update with the question, then the
// first frame), a key typed with it open (a frame included), and a frame
// drawn again. Each must stay well under 100 ms at every size. Decoding
// the question is not on the event loop: BenchmarkHear measures it.
func BenchmarkAsk(b *testing.B) {
	for _, kind := range []string{"sampling", "elicitation"} {
		for _, sz := range askSizes {
			msg := questionMsg(b, bigQuestion(askMethods[kind], sz.size))
			b.Run("arrive/"+kind+"/"+sz.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					m := fresh()
					b.StartTimer()
					m, _ = m.Update(msg)
					_ = m.View()
				}
			})
			b.Run("key/"+kind+"/"+sz.name, func(b *testing.B) {
				m, _ := fresh().Update(msg)
				b.ReportAllocs()
				for b.Loop() {
					m, _ = m.Update(ui.KeyPress("a"))
					_ = m.View()
				}
			})
			b.Run("view/"+kind+"/"+sz.name, func(b *testing.B) {
				m, _ := fresh().Update(msg)
				b.ReportAllocs()
				for b.Loop() {
					_ = m.View()
				}
			})
			b.Run("read/"+kind+"/"+sz.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					m, _ := fresh().Update(msg)
					b.StartTimer()
					m, _ = m.Update(ui.KeyPress("ctrl+o"))
					_ = m.View()
				}
			})
		}
	}
}

// BenchmarkHear measures decoding a big question, on the goroutine that
// asks it, off the event loop.
func BenchmarkHear(b *testing.B) {
	for _, kind := range []string{"sampling", "elicitation"} {
		for _, sz := range askSizes {
			q := bigQuestion(askMethods[kind], sz.size)
			b.Run(kind+"/"+sz.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_ = questionMsg(b, q)
				}
			})
		}
	}
}

// askMethods are the methods of the questions, by a name without a slash.
var askMethods = map[string]string{"sampling": model.MethodCreateMessage, "elicitation": model.MethodElicit}
