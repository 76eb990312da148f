package demo_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestMain lets this test binary stand in for mcplens as a demo server:
// `TESTBINARY __demo-server LABEL TOOL...`.
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == demo.Subcommand {
		if err := demo.Serve(os.Args[2], os.Args[3:]...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCollisionConfigs loads each config in testdata/configs/collisions,
// one per collision class, runs its servers for real over stdio, and checks
// every policy's outcome for every row against the config's golden file.
func TestCollisionConfigs(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/configs/collisions/*.json")
	if err != nil || len(paths) < 5 {
		t.Fatalf("want the collision configs, got %v (%v)", paths, err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			cfg, err := config.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := range cfg.Servers {
				cfg.Servers[i].Command = os.Args[0]
			}
			cats := listAll(t, cfg)
			var b strings.Builder
			for _, p := range model.Policies() {
				writeOutcomes(&b, p.Name, p.Apply(cats))
			}
			golden := strings.TrimSuffix(path, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden (run with -update to create it): %v", err)
			}
			if b.String() != string(want) {
				t.Errorf("outcomes differ from %s:\n--- got\n%s\n--- want\n%s", golden, b.String(), want)
			}
		})
	}
}

// listAll connects every server of cfg and returns what each listed, in
// declaration order, checking the names crossed the wire unchanged.
func listAll(t *testing.T, cfg *config.Config) []model.Catalogue {
	t.Helper()
	sess := loader.Open(cfg, loader.Options{Timeout: 20 * time.Second})
	defer sess.Close()
	listed := map[string][]model.Tool{}
	deadline := time.After(30 * time.Second)
	for len(listed) < len(cfg.Servers) {
		select {
		case ev := <-sess.Events():
			switch {
			case ev.Frames:
			case ev.State == mcpsession.Failed:
				t.Fatalf("server %s failed: %s\n%s", ev.Server, ev.Err, ev.Stderr)
			case ev.State == mcpsession.Ready:
				listed[ev.Server] = ev.Tools
			}
		case <-deadline:
			t.Fatalf("servers not ready after 30s: have %d of %d", len(listed), len(cfg.Servers))
		}
	}
	var cats []model.Catalogue
	for _, s := range cfg.Servers {
		tools := listed[s.Label]
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
		}
		if want := s.Args[2:]; strings.Join(names, "\n") != strings.Join(want, "\n") {
			t.Errorf("server %s listed %q, want %q", s.Label, names, want)
		}
		cats = append(cats, model.Catalogue{Server: s.Label, Tools: tools})
	}
	return cats
}

// writeOutcomes writes one policy's verdict on every row, one line each.
func writeOutcomes(b *strings.Builder, policy string, r *model.Registry) {
	fmt.Fprintf(b, "== %s\n", policy)
	for _, s := range r.Servers {
		if s.Failed {
			fmt.Fprintf(b, "server %s FAILED: %s\n", s.Server, s.Err)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(b, "server %s note: %s\n", s.Server, n)
		}
		for _, o := range s.Outcomes {
			fmt.Fprintf(b, "%s %s -> %s: %s", o.Server, o.Wire, o.Name, o.Kind)
			if o.By != "" {
				fmt.Fprintf(b, " (by %s)", o.By)
			}
			if o.Reason != "" {
				fmt.Fprintf(b, ": %s", o.Reason)
			}
			b.WriteString("\n")
		}
	}
	for _, c := range r.Collisions() {
		fmt.Fprintf(b, "collision %s: %s, %d rows, winner %d\n", c.Name, c.Class, len(c.Rows), c.Winner)
	}
}
