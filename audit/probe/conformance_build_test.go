package probe_test

import (
	"context"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/internal/testkit/auditee"
	"github.com/mcplens/mcplens/internal/testkit/everything"
)

// buildScenarios are the server scenarios the pinned suite lacks and its
// repository's builds have (0.2.0-alpha.11), each with the revision it is
// of (the audit asks for it: at 2026-07-28 the stateless scenarios, at
// 2025-11-25 the rest) and the audit checks of the same behaviour. The
// audit fails a scenario when one of its checks has a finding; when the
// server settled on another revision than the scenario's, the audit has no
// verdict ("n/a": the server does not speak that revision, which it may),
// and agrees with a suite that fails it.
var buildScenarios = []struct {
	scenario, revision string
	checks             []string
	// on are the servers it is compared on besides server-everything and
	// the correct auditee: the auditee modes whose fault it is about.
	on []string
}{
	{"server-session-lifecycle", "2025-11-25", []string{"http.session-id", "http.delete"}, nil},
	{"server-sse-multiple-streams", "2025-11-25", []string{"http.multiple-streams"}, []string{"one-stream"}},
	{"completion-complete", "2025-11-25", []string{"completion.complete"}, nil},
	{"server-stateless", "2026-07-28", []string{"lifecycle.initialize", "lifecycle.version", "http.protocol-version", "http.mcp-method",
		"stateless.meta-required", "stateless.removed-methods", "stateless.unsupported-version", "jsonrpc.unknown-method"}, []string{"meta-optional", "removed-200", "unknown-200"}},
	{"caching", "2026-07-28", []string{"caching.hints"}, nil},
	{"http-header-validation", "2026-07-28", []string{"http.mcp-method"}, []string{"mcp-method-ignored"}},
}

// knownDisagreements are the verdicts that differ because the suite judges
// its own fixture, not the behaviour: each must still differ (else the
// entry goes), and docs/audit.md says each.
var knownDisagreements = map[[2]string]string{
	{"server-everything", "completion-complete"}: "the suite completes its own prompt test_prompt_with_arguments, which server-everything lacks",
	{"auditee", "server-stateless"}:              "the suite calls its own diagnostic tools (test_missing_capability, test_streaming_elicitation, test_logging_tool), which the auditee lacks",
}

// compareBuild compares buildScenarios where everything.ConformanceDir
// names a build of the suite that has them, and logs which it compared.
func compareBuild(t *testing.T, servers map[string]string, audits *audits) {
	script := everything.ConformanceBuild(t)
	var names []string
	for _, s := range buildScenarios {
		names = append(names, s.scenario)
	}
	if script == "" {
		t.Logf("not compared (%s unset; docs/audit.md has the verdicts of 0.2.0-alpha.11): %s", everything.ConformanceDir, strings.Join(names, ", "))
		return
	}
	has := listedScenarios(t, script)
	var compared, missing []string
	for _, s := range buildScenarios {
		if !has[s.scenario] {
			missing = append(missing, s.scenario)
			continue
		}
		compared = append(compared, s.scenario)
		on := []string{"server-everything", "auditee"}
		for _, mode := range s.on {
			name := "auditee-" + mode
			if _, ok := servers[name]; !ok {
				servers[name] = auditee.HTTP(t, mode).URL
			}
			on = append(on, name)
		}
		for _, name := range on {
			compareOne(t, script, servers[name], name, s.scenario, s.revision, s.checks, audits)
		}
	}
	t.Logf("compared with the build at %s: %s", script, strings.Join(compared, ", "))
	if len(missing) > 0 {
		t.Logf("not in that build, not compared: %s", strings.Join(missing, ", "))
	}
}

// compareOne runs scenario on the server name and the audit at rev, and
// wants the same verdict, or the one knownDisagreements says.
func compareOne(t *testing.T, script, url, name, scenario, rev string, checks []string, audits *audits) {
	t.Helper()
	suitePass := verdictOf(t, script, url, scenario)
	r := audits.at(name, rev)
	verdict := "n/a"
	if r.Revision == rev {
		if i := slices.IndexFunc(checks, func(id string) bool {
			return !slices.Contains(r.Passed, id) && !slices.ContainsFunc(r.Findings, func(f audit.Finding) bool { return f.Check == id })
		}); i >= 0 {
			t.Errorf("%s, %s: the audit did not probe %s (%s)", name, scenario, checks[i], r.Skipped[checks[i]])
			return
		}
		verdict = pass(!slices.ContainsFunc(r.Findings, func(f audit.Finding) bool { return slices.Contains(checks, f.Check) }))
	}
	t.Logf("%-26s %-28s suite %-4s audit %s (settled on %s)", name, scenario, pass(suitePass), verdict, r.Revision)
	agree := verdict == pass(suitePass) || (verdict == "n/a" && !suitePass)
	why, known := knownDisagreements[[2]string{name, scenario}]
	switch {
	case known && agree:
		t.Errorf("%s, %s: listed as a disagreement (%s) but both say %s", name, scenario, why, pass(suitePass))
	case !known && !agree:
		t.Errorf("%s, %s: the suite says %s, the audit (%v at %s) %s", name, scenario, pass(suitePass), checks, rev, verdict)
	}
}

// scenarioLine is a server scenario in the suite's list command.
var scenarioLine = regexp.MustCompile(`(?m)^\s+- ([a-z0-9-]+)`)

// listedScenarios are the scenarios the suite's list command names.
func listedScenarios(t *testing.T, script string) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", script, "list").Output()
	if err != nil {
		t.Fatalf("node %s list: %v", script, err)
	}
	has := map[string]bool{}
	for _, m := range scenarioLine.FindAllStringSubmatch(string(out), -1) {
		has[m[1]] = true
	}
	return has
}
