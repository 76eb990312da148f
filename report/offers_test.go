package report_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
)

// TestGoldenOffers runs two servers whose prompts collide as slash
// commands (testdata/servers/prompts) and checks the report's resources,
// templates and prompts: under gemini-cli in every format, under the other
// clients' prompt naming as JSON.
func TestGoldenOffers(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "prompts")
	build := exec.Command("go", "build", "-o", bin, "./testdata/servers/prompts")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/servers/prompts: %v\n%s", err, out)
	}
	cfg := &config.Config{Path: "prompts.json", Servers: []config.ServerSpec{
		{Label: "alpha", Transport: config.TransportStdio, Command: bin, Args: []string{"alpha"}},
		{Label: "beta", Transport: config.TransportStdio, Command: bin, Args: []string{"beta"}},
	}}
	snap := collect(t, cfg)
	for _, policy := range []string{"gemini-cli", "claude-code", "vscode", "codex"} {
		r := report.Build("prompts.json", surface.Assess(snap, surface.Options{
			Policy:   mustPolicy(t, policy),
			Profiles: model.DefaultProfiles(),
		}))
		if len(r.Servers) != 2 || len(r.Servers[0].Prompts) != 2 || len(r.Servers[0].Resources) != 2 || len(r.Servers[0].Templates) != 1 {
			t.Fatalf("%s: servers %+v, want two with 2 prompts, 2 resources, 1 template", policy, r.Servers)
		}
		if policy == "gemini-cli" {
			goldens(t, "offers-gemini-cli", r)
			if len(r.PromptCollisions) != 0 || r.Servers[0].Prompts[1].Command != "/alpha.greet" {
				t.Errorf("gemini-cli: prompts %+v, want greet renamed /alpha.greet", r.Servers[0].Prompts)
			}
			continue
		}
		var b bytes.Buffer
		if err := report.Write(&b, r, "json"); err != nil {
			t.Fatal(err)
		}
		golden(t, "offers-"+policy+".json", b.Bytes())
	}
}
