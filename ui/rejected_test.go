package ui_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/internal/testkit/headertest"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

// TestRejectedToolShown: the interface lists a tool a client over
// streamable HTTP at 2026-07-28 rejects for its x-mcp-header as dropped,
// and its detail says why.
func TestRejectedToolShown(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{Tools: `[
 {"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
 {"name":"invalid_space","inputSchema":{"type":"object","properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}}]`})
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "hdr", Transport: config.TransportHTTP, URL: srv.URL}}}
	h := model.NeutralHandshake()
	h.ProtocolVersion = model.Revision20260728
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second, Handshake: h})
	t.Cleanup(func() { sess.Close() })
	var m tea.Model = ui.New(ui.Options{Title: "headers", Servers: cfg.Servers, Backend: sess})
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	m = ui.Settle(settle(t, m, cfg, sess))
	var shown string
	for range 4 { // the rows, whichever order the view keeps them in
		shown = screen(m)
		if strings.Contains(shown, `why: rejected for its x-mcp-header: property v: x-mcp-header "My Region" holds ' '`) {
			return
		}
		m = ui.Settle(press(m, "down"))
	}
	t.Fatalf("no row says why invalid_space is not registered:\n%s", shown)
}
