//go:build unix

package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/report"
)

// appsConfig writes a config declaring the app server of internal/testkit
// with args.
func appsConfig(t *testing.T, args ...string) string {
	t.Helper()
	obj := `{"command": "` + build(t, "../internal/testkit/appserver") + `", "args": ["` + strings.Join(args, `", "`) + `"]}`
	if len(args) == 0 {
		obj = `{"command": "` + build(t, "../internal/testkit/appserver") + `"}`
	}
	return gatedConfig(t, map[string]string{"board": obj})
}

// reportRow returns the report's row of server's tool.
func reportRow(t *testing.T, r *report.Report, server, tool string) report.Tool {
	t.Helper()
	for _, s := range r.Servers {
		if s.Label != server {
			continue
		}
		if i := slices.IndexFunc(s.Tools, func(x report.Tool) bool { return x.Wire == tool }); i >= 0 {
			return s.Tools[i]
		}
	}
	t.Fatalf("no row %s on %s", tool, server)
	return report.Tool{}
}

func hasFinding(r *report.Report, kind, tool, evidence string) bool {
	return slices.ContainsFunc(r.Findings, func(f report.Finding) bool {
		return f.Kind == kind && f.Tool == tool && strings.Contains(f.Evidence, evidence)
	})
}

// TestCheckAppsRegistryPerClient: the app-only tool is kept from the model
// of a client that hosts apps and registered for one that does not, each
// with its reason; --clients all names the clients whose models see it;
// the apps lint finds the missing and the mistyped resource and the
// unexplained permission. Over a real server on stdio.
func TestCheckAppsRegistryPerClient(t *testing.T) {
	path := appsConfig(t)
	hosted := checkJSON(t, path, "--client", "claude-desktop@2026")
	plain := checkJSON(t, path, "--client", "claude-code")
	if row := reportRow(t, hosted, "board", "board_state"); row.Outcome != "filtered" || row.RegisteredAs != "" || !strings.Contains(row.Reason, "app only") {
		t.Errorf("hosting apps: board_state = %+v, want filtered, app only", row)
	}
	if row := reportRow(t, plain, "board", "board_state"); row.RegisteredAs != "mcp__board__board_state" || !strings.Contains(row.Reason, "hosts no apps") {
		t.Errorf("hosting none: board_state = %+v, want registered with its note", row)
	}
	for _, r := range []*report.Report{hosted, plain} {
		if row := reportRow(t, r, "board", "show_board"); row.RegisteredAs != "mcp__board__show_board" {
			t.Errorf("%s: show_board = %+v, want registered", r.Client, row)
		}
		if !hasFinding(r, "app-resource", "lost_app", "does not list") || !hasFinding(r, "app-resource", "plain_app", `"text/html"`) ||
			!hasFinding(r, "app-permission", "board_state", "camera") {
			t.Errorf("%s: the lint missed something: %+v", r.Client, r.Findings)
		}
		if hasFinding(r, "tool-lost", "board_state", "") {
			t.Errorf("%s: the app-only tool is reported lost", r.Client)
		}
	}
	if !hasFinding(hosted, "app-only", "board_state", "its model does not see") || !hasFinding(plain, "app-only", "board_state", "hosts no apps") {
		t.Errorf("no app-only finding: %+v / %+v", hosted.Findings, plain.Findings)
	}

	all := checkJSON(t, path, "--clients", "all")
	g, f, ok := gatedOf(all, "board", "board_state")
	if !ok || !g.AppOnly || !slices.Equal(g.NotTo, []string{"claude-desktop@2026"}) || !slices.Contains(g.To, "claude-code@2.1") ||
		!strings.Contains(f.Evidence, "for its app only") {
		t.Errorf("--clients all: %+v %+v", g, f)
	}
	if _, _, gated := gatedOf(all, "board", "show_board"); gated {
		t.Error("show_board is gated, though every model sees it")
	}
}
