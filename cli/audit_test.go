package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/internal/testkit/auditee"
)

// runAudited runs `mcplens audit ARGS...` in process.
func runAudited(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runAudit(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

// auditConfig writes a config of the auditee server in each mode, labelled
// by mode ("good" for the correct one), one per line from line 3.
func auditConfig(t *testing.T, modes ...string) string {
	t.Helper()
	bin := auditee.Path(t)
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {\n")
	for i, m := range modes {
		label := m
		if m == "" {
			label = "good"
		}
		sep := ","
		if i == len(modes)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    %q: {\"command\": %q, \"args\": [\"-mode\", %q]}%s\n", label, bin, m, sep)
	}
	b.WriteString("  }\n}\n")
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAuditSARIF: audit's SARIF log is valid SARIF 2.1.0, has a rule per
// check, and locates each finding at its server's line in the config.
func TestAuditSARIF(t *testing.T) {
	sch := sarifSchema(t)
	cfg := auditConfig(t, "", "stdout-noise")
	code, out, errb := runAudited(t, cfg, "--format", "sarif")
	if code != exitFound {
		t.Fatalf("audit --format sarif: exit %d, want %d\n%s", code, exitFound, errb)
	}
	doc := sarifOf(t, sch, out)
	run := doc.Runs[0]
	if want := "mcplens/audit/" + filepath.ToSlash(cfg) + "/"; run.AutomationDetails.ID != want {
		t.Errorf("automationDetails.id = %q, want %q", run.AutomationDetails.ID, want)
	}
	var rules []string
	for _, r := range run.Tool.Driver.Rules {
		rules = append(rules, r.ID)
	}
	for _, c := range audit.Checks() {
		if !slices.Contains(rules, c.ID) {
			t.Errorf("no SARIF rule for check %s", c.ID)
		}
	}
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want the stdout noise alone:\n%s", len(run.Results), out)
	}
	r := run.Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "stdio.stdout-noise" || r.Level != "error" || loc.Region.StartLine != 4 || loc.Region.StartColumn != 5 ||
		!strings.HasSuffix(loc.ArtifactLocation.URI, "/mcp.json") {
		t.Errorf("result %s (%s) at %s:%d:%d, want stdio.stdout-noise, error, at mcp.json:4:5", r.RuleID, r.Level,
			loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn)
	}
}

// TestAuditJSONAndJUnit: the JSON report and the JUnit XML carry the check
// ids; the finding's evidence is the frame that proves it.
func TestAuditJSONAndJUnit(t *testing.T) {
	cfg := auditConfig(t, "wrong-code")
	code, out, errb := runAudited(t, cfg, "--format", "json")
	if code != exitFound {
		t.Fatalf("audit --format json: exit %d\n%s", code, errb)
	}
	var doc struct {
		Servers []struct {
			Server   string            `json:"server"`
			Revision string            `json:"revision"`
			Passed   []string          `json:"passed"`
			Skipped  map[string]string `json:"skipped"`
			Findings []struct {
				Check, Level, Section string
				Evidence              []struct{ Dir, Text string }
			} `json:"findings"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := doc.Servers[0]
	if len(s.Findings) != 1 || s.Findings[0].Check != "jsonrpc.unknown-method" || s.Findings[0].Level != "error" || s.Findings[0].Section == "" {
		t.Fatalf("findings = %+v, want jsonrpc.unknown-method alone", s.Findings)
	}
	ev := s.Findings[0].Evidence
	if len(ev) != 2 || ev[0].Dir != "out" || !strings.Contains(ev[1].Text, "-32600") {
		t.Errorf("evidence = %+v, want the request and its -32600 answer", ev)
	}
	// mcplens's own handshake settles on 2026-07-28 with the auditee,
	// where ping is gone: not applicable, and said so, in every format.
	if s.Revision != "2026-07-28" || slices.Contains(s.Passed, "lifecycle.ping") || s.Skipped["lifecycle.ping"] == "" {
		t.Errorf("revision %q, passed %v, skipped %v; want 2026-07-28 with lifecycle.ping not applicable", s.Revision, s.Passed, s.Skipped)
	}

	code, out, errb = runAudited(t, cfg, "--format", "junit")
	if code != exitFound {
		t.Fatalf("audit --format junit: exit %d\n%s", code, errb)
	}
	var root xmlNode
	if err := xml.Unmarshal([]byte(out), &root); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	xsd := readXSD(t, filepath.Join("..", "report", "testdata", "junit.xsd"))
	if problems := xsd.check("testsuites", root); len(problems) > 0 {
		t.Errorf("JUnit XML does not meet the schema:\n%s\n%s", strings.Join(problems, "\n"), out)
	}
	var failed, cases, skipped, props []string
	for _, st := range root.children("testsuite") {
		for _, p := range st.children("properties")[0].children("property") {
			props = append(props, p.attr("name")+"="+p.attr("value"))
		}
		for _, c := range st.children("testcase") {
			cases = append(cases, c.attr("name"))
			if len(c.children("failure")) > 0 {
				failed = append(failed, c.attr("name"))
			}
			if len(c.children("skipped")) > 0 {
				skipped = append(skipped, c.attr("name"))
			}
		}
	}
	if !slices.Equal(failed, []string{"jsonrpc.unknown-method"}) || !slices.Contains(cases, "jsonrpc.id-echo") {
		t.Errorf("failed cases %v of %v, want jsonrpc.unknown-method alone", failed, cases)
	}
	if !slices.Contains(skipped, "lifecycle.ping") || slices.Contains(skipped, "jsonrpc.unknown-method") || !slices.Contains(props, "revision=2026-07-28") {
		t.Errorf("skipped cases %v, properties %v; want lifecycle.ping skipped on revision 2026-07-28", skipped, props)
	}

	code, out, _ = runAudited(t, cfg, "--format", "markdown")
	if code != exitFound || !strings.Contains(out, "`jsonrpc.unknown-method`") || !strings.Contains(out, "answered `2026-07-28`") {
		t.Errorf("markdown: exit %d, want the check id and the revision in:\n%s", code, out)
	}
	code, out, _ = runAudited(t, cfg, "--format", "sarif")
	if code != exitFound || !strings.Contains(out, "wrong-code (on 2026-07-28)") {
		t.Errorf("sarif: exit %d, want the revision in the result's message:\n%s", code, out)
	}

	// At a handshake revision ping applies, and the fault (a revision's
	// rule of every revision) is found the same.
	code, out, errb = runAudited(t, cfg, "--protocol", "2025-11-25")
	if code != exitFound || !strings.Contains(out, "answered 2025-11-25") || !strings.Contains(out, "jsonrpc.unknown-method") {
		t.Errorf("--protocol 2025-11-25: exit %d, want the finding on 2025-11-25:\n%s%s", code, out, errb)
	}
	code, out, _ = runAudited(t, cfg, "--protocol", "2025-11-25", "--format", "json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitFound || !slices.Contains(doc.Servers[0].Passed, "lifecycle.ping") {
		t.Errorf("--protocol 2025-11-25: exit %d (%v), want lifecycle.ping passed:\n%s", code, err, out)
	}
}

// TestAuditFailOn: a warning fails the run under --fail-on warning only;
// a correct server passes under both.
func TestAuditFailOn(t *testing.T) {
	cfg := auditConfig(t, "ignore-stdin-close")
	if code, out, errb := runAudited(t, cfg, "--fail-on", "error"); code != exitOK || !strings.Contains(out, "stdio.stdin-close") {
		t.Errorf("--fail-on error: exit %d, want 0 with the warning shown\n%s%s", code, out, errb)
	}
	if code, _, errb := runAudited(t, cfg, "--fail-on", "warning"); code != exitFound {
		t.Errorf("--fail-on warning: exit %d, want 1\n%s", code, errb)
	}
	good := auditConfig(t, "")
	if code, out, errb := runAudited(t, good, "--fail-on", "warning", "--call", "echo", "--args", `{"text":"hi"}`, "--format", "json"); code != exitOK || !strings.Contains(out, `"tools.call"`) {
		t.Errorf("correct server with --call: exit %d, want 0 and tools.call passed\n%s%s", code, out, errb)
	}
}

// TestAuditUsage: usage errors exit 2 and say why.
func TestAuditUsage(t *testing.T) {
	cfg := auditConfig(t, "")
	for _, args := range [][]string{
		{cfg, "--fail-on", "sometimes"},
		{cfg, "--format", "pdf"},
		{cfg, "--args", "{}"},
		{cfg, "--call", "echo", "--args", "{"},
		{cfg, "--protocol", "latest"},
		{cfg, cfg},
		{},
		{cfg, "--server", "nosuch"},
	} {
		if code, _, errb := runAudited(t, args...); code != exitUsage || !strings.Contains(errb, "mcplens audit") && !strings.Contains(errb, "usage") {
			t.Errorf("audit %v: exit %d, want %d with a reason\n%s", args, code, exitUsage, errb)
		}
	}
}

// TestAuditURL: a server given with --url is audited over streamable HTTP;
// its SARIF results name no file (there is none) and the exit is 1 for an
// Origin accepted.
func TestAuditURL(t *testing.T) {
	spec := auditee.HTTP(t, "origin")
	code, out, errb := runAudited(t, "--url", spec.URL, "--format", "sarif")
	if code != exitFound {
		t.Fatalf("audit --url: exit %d, want %d\n%s", code, exitFound, errb)
	}
	doc := sarifOf(t, sarifSchema(t), out)
	rs := doc.Runs[0].Results
	if len(rs) != 1 || rs[0].RuleID != "http.origin" || rs[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "" {
		t.Errorf("results %+v, want http.origin alone, with no file", rs)
	}
}
