package loader_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// TestEverythingGated: server-everything, connected once per handshake,
// shows the tools it gates on roots, sampling and elicitation to the
// clients that declare them, and surface.Gated names the clients on each
// side; its initialize answer's facts reach the snapshot.
func TestEverythingGated(t *testing.T) {
	entry := everythingEntry(t)
	cfg := &config.Config{Servers: []config.ServerSpec{{
		Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"},
	}}}
	clients := []struct {
		name      string
		handshake model.Handshake
	}{
		{"vscode@1.105", mustClient(t, "vscode").Handshake},
		{"cursor@1.7", mustClient(t, "cursor").Handshake},
		{"mcplens (neutral)", model.NeutralHandshake()},
	}
	sightings := make([]surface.Sighting, len(clients))
	for i, c := range clients {
		s := loader.Open(cfg, loader.Options{Handshake: c.handshake, Answers: loader.Answers{Roots: []string{t.TempDir()}}})
		t.Cleanup(func() { s.Close() })
		snap := surface.New(cfg.Servers, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err := surface.Collect(ctx, s.Events(), snap)
		cancel()
		if err != nil || !snap.Servers[0].Listed {
			t.Fatalf("%s: %v, server %+v (stderr %s)", c.name, err, snap.Servers[0], s.Stderr("everything"))
		}
		sightings[i] = surface.Sighting{Clients: []string{c.name}, Snap: snap}
	}
	want := map[string][2][]string{
		"get-roots-list":              {{"vscode@1.105", "cursor@1.7"}, {"mcplens (neutral)"}},
		"trigger-sampling-request":    {{"vscode@1.105"}, {"cursor@1.7", "mcplens (neutral)"}},
		"trigger-elicitation-request": {{"vscode@1.105", "cursor@1.7"}, {"mcplens (neutral)"}},
	}
	got := map[string]surface.GatedTool{}
	for _, g := range surface.Gated(sightings) {
		got[g.Tool] = g
	}
	for tool, sides := range want {
		g, ok := got[tool]
		if !ok || !slices.Equal(g.To, sides[0]) || !slices.Equal(g.NotTo, sides[1]) {
			t.Errorf("%s gated %+v (found %v), want to %q, not to %q", tool, g, ok, sides[0], sides[1])
		}
	}
	f := sightings[0].Snap.Servers[0].Facts
	if !slices.ContainsFunc(f.Capabilities, func(c string) bool { return strings.HasPrefix(c, "tools") }) {
		t.Errorf("server-everything's capabilities = %q, want tools among them", f.Capabilities)
	}
	if f.Title == "" || f.Instructions == "" {
		t.Errorf("server-everything's title %q, instructions %q: want both", f.Title, f.Instructions)
	}
	t.Logf("server-everything: capabilities %q, title %q, instructions %d bytes (cut %v)", f.Capabilities, f.Title, len(f.Instructions), f.Cut)
}
