package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
)

// writeAll renders r in every format, by format.
func writeAll(t *testing.T, r *report.Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, format := range report.Formats() {
		var b bytes.Buffer
		if err := report.Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		out[format] = b.String()
	}
	return out
}

// TestReportMasksConfigSecrets: a server's error, stderr and findings
// that quote the config's secrets (a URL's query token, a header value
// echoed back, an env value) show none of them in any format, and
// mcplens's own hint is left as written.
func TestReportMasksConfigSecrets(t *testing.T) {
	specs := []config.ServerSpec{
		{Label: "remote", Transport: config.TransportHTTP, URL: "http://127.0.0.1:9/mcp?token=QTOKEN42",
			Headers: []config.Header{{Name: "X-Api-Key", Value: "HEADERVALUE77"}}},
		{Label: "local", Command: "srv", Env: []config.EnvVar{{Key: "SERVICE_PASSWORD", Value: "ENVPASS55"}}},
	}
	hint := "(the server wants authorization: mcplens does not run OAuth; give a token in the config's headers)"
	specs[1].Findings = []string{"3:5: args: ${env:X} is not set; the client passes an empty string"}
	states := []state{
		{spec: specs[0], ev: &mcpsession.Event{Server: "remote", State: mcpsession.Failed,
			Err:    `connecting to http://127.0.0.1:9/mcp?token=****: Post "http://127.0.0.1:9/mcp?token=QTOKEN42": 401 ` + hint,
			Stderr: "rejected HEADERVALUE77\n"}},
		{spec: specs[1], ev: &mcpsession.Event{Server: "local", State: mcpsession.Ready, Err: "listing cut short after ENVPASS55",
			Findings: []model.Finding{{Severity: model.Warn, Kind: "protocol", Server: "local", Evidence: "stdout carries text that is not JSON: using ENVPASS55"}}}},
	}
	r := build("c", surface.Options{Policy: mustPolicy(t, "lionagi")}, states...)
	for format, out := range writeAll(t, r) {
		for _, secret := range []string{"QTOKEN42", "HEADERVALUE77", "ENVPASS55"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s report shows the secret %s:\n%s", format, secret, out)
			}
		}
		if format != "markdown" && !strings.Contains(out, "give a token in the config's headers") {
			t.Errorf("%s report mangles the hint:\n%s", format, out)
		}
	}
}

// TestReportListsConfigAndProtocolFindings: what the config says of a
// server and how the server broke the protocol are findings in every
// format, at warning, and --fail-on warning fails on them.
func TestReportListsConfigAndProtocolFindings(t *testing.T) {
	st := ready("h", tool(`{"name":"echo"}`))
	st.ev.Findings = []model.Finding{
		{Severity: model.Warn, Kind: "protocol", Server: "h", Evidence: "stdout carries text that is not JSON: hostile banner"},
		{Severity: model.Warn, Kind: "protocol", Server: "h", Evidence: "answers id 9999, which no request is waiting for"},
	}
	st.spec.Findings = []string{`4:7: unknown key "bogus": Cursor does not read it`, "5:9: args: ${env:NOPE} is not set; the client passes an empty string"}
	snap := snapshot([]string{"the file has comments or trailing commas, which are not JSON: Claude Desktop would reject it"}, st)
	r := report.Build("c", surface.Assess(snap, surface.Options{Policy: mustPolicy(t, "lionagi"), Profiles: model.DefaultProfiles()}))
	want := []string{"warning protocol h", "warning config h"}
	got := kinds(r)
	for _, w := range want {
		n := 0
		for _, g := range got {
			if g == w {
				n++
			}
		}
		if n != 2 {
			t.Errorf("findings %q, want two %q", got, w)
		}
	}
	if last := r.Findings[len(r.Findings)-1]; last.Kind != "config" || last.Server != "" || last.Severity != report.Warning {
		t.Errorf("last finding %+v, want the file's own, a config warning on no server", last)
	}
	if sev, ok := r.Worst(); !ok || sev != report.Warning {
		t.Errorf("Worst() = %v, %v, want warning: --fail-on warning must fail", sev, ok)
	}
	for format, out := range writeAll(t, r) {
		for _, evidence := range []string{"hostile banner", "9999", "bogus", "NOPE", "trailing commas"} {
			if !strings.Contains(out, evidence) {
				t.Errorf("%s report does not list the finding on %q:\n%s", format, evidence, out)
			}
		}
	}
}

// TestMarkdownNeutralisesServerText: server text cannot mention anyone,
// link anywhere, reference an issue or typeset math in a Markdown report.
func TestMarkdownNeutralisesServerText(t *testing.T) {
	text := "ping @octocat and cc @org/team, see https://evil.example/x?a=b or www.evil.example, mail root@evil.example, " +
		"fixes #12 and GH-7, costs $5, math $x^2$ and $$y$$, ``code`` kept"
	st := ready("h", tool(`{"name":"echo"}`))
	st.ev.Findings = []model.Finding{{Severity: model.Warn, Kind: "protocol", Server: "h", Evidence: text}}
	r := build("cfg @admin", surface.Options{Policy: mustPolicy(t, "lionagi"), Profiles: model.DefaultProfiles()},
		st, failed("fail", text, ""))
	var b bytes.Buffer
	if err := report.Write(&b, r, "markdown"); err != nil {
		t.Fatal(err)
	}
	golden(t, "neutralised.md", b.Bytes())
	// Outside code spans nothing GitHub acts on is left.
	outside := regexp.MustCompile("(`+)[^`]*?(`+)").ReplaceAllString(b.String(), "")
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`@`), regexp.MustCompile(`://`), regexp.MustCompile(`(?i)www\.`),
		regexp.MustCompile(`#\d`), regexp.MustCompile(`(?i)gh-\d`), regexp.MustCompile(`(^|[^\\])\$`),
	} {
		if loc := bad.FindStringIndex(outside); loc != nil {
			t.Errorf("markdown report has %q outside a code span: …%s…", bad, outside[max(0, loc[0]-30):min(len(outside), loc[1]+30)])
		}
	}
}
