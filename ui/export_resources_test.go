package ui

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// OfferResult runs cmd, and each command of a batch, each in its own
// goroutine, and returns the first message of the resources & prompts
// view one of them returns (a read, a prompts/get, a completion, a
// subscription, the reader an answer opens), or nil when all are done, or
// d passed, without one.
func OfferResult(cmd tea.Cmd, d time.Duration) tea.Msg {
	found := make(chan tea.Msg, 16)
	var wg sync.WaitGroup
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		wg.Go(func() {
			switch msg := c().(type) {
			case tea.BatchMsg:
				for _, c := range msg {
					run(c)
				}
			case offerShownMsg, completedMsg, subscribedMsg, readMsg:
				found <- msg
			}
		})
	}
	run(cmd)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case msg := <-found:
		return msg
	case <-done:
		select {
		case msg := <-found:
			return msg
		default:
			return nil
		}
	case <-time.After(d):
		return nil
	}
}
