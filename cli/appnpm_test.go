//go:build unix

package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/internal/testkit/headless"
)

// TestAppNpmExamples: the extension's own example servers, from npm. Their
// tools have apps for both the model and the app, so every model sees
// them; what the client makes of the app differs, in check's outcome. And
// mcplens app hosts each app in a real Chromium: the app's initialize is a
// frame, the tool's result is posted to it and shows in it; the basic
// app's button calls its server's tool through the host, and its link
// button is refused and shown.
func TestAppNpmExamples(t *testing.T) {
	basic, budget := everything.AppEntry(t, everything.BasicApp), everything.AppEntry(t, everything.BudgetApp)
	path := gatedConfig(t, map[string]string{
		"basic":  `{"command": "node", "args": ["` + basic + `", "--stdio"]}`,
		"budget": `{"command": "node", "args": ["` + budget + `", "--stdio"]}`,
	})
	hosted := checkJSON(t, path, "--client", "claude-desktop@2026")
	plain := checkJSON(t, path, "--client", "claude-code")
	for _, tt := range []struct{ server, tool string }{{"basic", "get-time"}, {"budget", "get-budget-data"}} {
		if row := reportRow(t, hosted, tt.server, tt.tool); row.RegisteredAs == "" || !strings.Contains(row.Reason, "which the client shows") {
			t.Errorf("hosting apps: %s = %+v", tt.tool, row)
		}
		if row := reportRow(t, plain, tt.server, tt.tool); row.RegisteredAs == "" || !strings.Contains(row.Reason, "is not shown: the client hosts no apps") {
			t.Errorf("hosting none: %s = %+v", tt.tool, row)
		}
	}

	t.Run("basic", func(t *testing.T) {
		_, url, out, errs := startApp(t, path, "get-time")
		ctx := headless.New(t)
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		out.waitAll(t, 60*time.Second, `← basic app get-time {`, `"method":"ui/initialize"`)
		out.waitAll(t, 60*time.Second, `→ basic app get-time {`, `"method":"ui/notifications/tool-result"`)
		app := headless.Frame(t, ctx, "/app")
		before := waitText(t, app, "#server-time", func(s string) bool { return s != "" && !strings.Contains(s, "Loading") })
		click(t, app, "get-time-btn")
		out.waitAll(t, 30*time.Second, `← basic app get-time {`, `"method":"tools/call"`, `"name":"get-time"`)
		out.waitAll(t, 30*time.Second, `→ basic {`, `"method":"tools/call"`, `"name":"get-time"`)
		waitText(t, app, "#server-time", func(s string) bool { return s != "" && s != before })
		click(t, app, "open-link-btn")
		errs.wait(t, "asks to open", 30*time.Second)
		out.waitAll(t, 30*time.Second, `→ basic app get-time {`, `"message":"refused: this host opens no links"`)
	})
	t.Run("budget", func(t *testing.T) {
		_, url, out, _ := startApp(t, path, "get-budget-data")
		ctx := headless.New(t)
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		out.waitAll(t, 60*time.Second, `← budget app get-budget-data {`, `"method":"ui/initialize"`)
		out.waitAll(t, 60*time.Second, `→ budget app get-budget-data {`, `"method":"ui/notifications/tool-result"`)
		app := headless.Frame(t, ctx, "/app")
		// The tool's result reached the app: it draws the budget's categories.
		waitText(t, app, "body", func(s string) bool { return strings.Contains(s, "Marketing") || strings.Contains(s, "Engineering") })
	})
}

// click clicks the button of id in the app, as a user would: by its
// click(), which needs no scrolling into view.
func click(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	step, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(step, chromedp.Evaluate[bool](`(document.getElementById("`+id+`").click(), true)`)); err != nil {
		t.Fatalf("clicking #%s: %v", id, err)
	}
}

// waitText polls the text of sel in ctx until ok holds, and returns it.
func waitText(t *testing.T, ctx context.Context, sel string, ok func(string) bool) string {
	t.Helper()
	end := time.Now().Add(60 * time.Second)
	var last string
	for time.Now().Before(end) {
		step, cancel := context.WithTimeout(ctx, 5*time.Second)
		s, err := chromedp.Run(step, chromedp.Text(chromedp.CSS(sel)))
		cancel()
		if err == nil && ok(s) {
			return s
		}
		last = s
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s never showed what was wanted; last %q", sel, last)
	return ""
}
