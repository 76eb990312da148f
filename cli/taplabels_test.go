package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/loader/config"
)

// TestTapLabelsRecordApart: three servers whose labels differ only where
// a file name cannot ("a/b", "a_b", "a b"), tapped by tap install and run
// at once by a real client, record into three files, none with a
// separator or a leading dot in its name, each of one server; the
// recordings opened offline show the three servers under their exact
// labels, each with its call.
func TestTapLabelsRecordApart(t *testing.T) {
	bin := build(t, "..")
	dir, recs := t.TempDir(), t.TempDir()
	labels := []string{"a/b", "a_b", "a b"}
	var servers []demoServer
	for _, l := range labels {
		servers = append(servers, demoServer{label: l, tools: []string{"request"}})
	}
	cfg := demoFile(t, dir, "mcp.json", servers...)
	var stdout, stderr bytes.Buffer
	if code := runTap([]string{"install", cfg, "--mcplens", bin, "--record-dir", recs}, nil, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("tap install = %d: %s", code, stderr.String())
	}
	tapped, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The client starts its servers at once, as clients do.
	env := []string{"XDG_RUNTIME_DIR=" + t.TempDir()}
	var clients []*client.Client
	var ctxs []context.Context
	for _, s := range tapped.Servers {
		if s.Command != bin || len(s.Args) == 0 || s.Args[0] != "tap" {
			t.Fatalf("server %q runs %s %q, not the tap", s.Label, s.Command, s.Args)
		}
		cl, ctx := tapClient(t, bin, env, s.Args[1:]...)
		clients, ctxs = append(clients, cl), append(ctxs, ctx)
	}
	for i, cl := range clients {
		driveDemo(t, ctxs[i], cl, "claude-code", "2.1.0", "request")
	}
	for _, cl := range clients {
		cl.Close()
	}

	paths, err := filepath.Glob(filepath.Join(recs, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(labels) {
		t.Fatalf("%d recordings %q, want one per label %q", len(paths), paths, labels)
	}
	var recorded []string
	for _, p := range paths {
		name := filepath.Base(p)
		if !strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, ".") ||
			strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == '\\' }) {
			t.Errorf("recording named %q", name)
		}
		c, err := capture.Read(capture.ReadOptions{}, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sv := range c.Servers {
			recorded = append(recorded, sv.Label)
		}
	}
	if slices.Sort(recorded); !slices.Equal(recorded, []string{"a b", "a/b", "a_b"}) {
		t.Errorf("the recordings hold servers %q, want one each of %q", recorded, labels)
	}
	var out bytes.Buffer
	waitUntil(t, "the three servers and their calls offline", func() bool {
		out.Reset()
		runOffline(append([]string{"--fail-on", "never"}, paths...), false, nil, &out, &stderr)
		return !slices.ContainsFunc(labels, func(l string) bool {
			return !strings.Contains(out.String(), l+` request {"message":"hi from claude-code"}`)
		})
	})
}
