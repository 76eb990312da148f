package probe_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/audit/probe"
	"github.com/mcplens/mcplens/internal/testkit/auditee"
	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/loader/config"
)

// suiteScenarios maps each server scenario of the official conformance
// suite (0.1.16) to the audit checks that judge the same behaviour. The
// audit fails a scenario when any of its checks has a finding, or with
// all set, when every one of them has (dns-rebinding-protection sends a
// foreign Host and Origin at once: a server that refuses either passes).
// The scenarios of newer builds are in buildScenarios; the rest, which
// need the suite's own fixture (tools-call-* call its own tools), are in
// docs/audit.md.
var suiteScenarios = []struct {
	scenario string
	checks   []string
	all      bool
}{
	{"server-initialize", []string{"lifecycle.initialize", "lifecycle.version"}, false},
	{"ping", []string{"lifecycle.ping"}, false},
	{"tools-list", []string{"tools.name", "tools.input-schema"}, false},
	{"resources-list", []string{"resources.uri"}, false},
	{"prompts-list", []string{"prompts.arguments"}, false},
	{"logging-set-level", []string{"logging.set-level"}, false},
	{"dns-rebinding-protection", []string{"http.origin", "http.host"}, true},
}

// suiteRevision is the newest revision the suite's server scenarios are
// of (2025-06-18 and 2025-11-25, handshake revisions both).
const suiteRevision = "2025-11-25"

// TestAgreesWithConformanceSuite runs the suite's server scenarios and the
// audit on the same servers over streamable HTTP (server-everything, and
// the auditee: correct, accepting a foreign Origin, accepting a foreign
// Origin and Host) and wants the same verdict on each; where a newer build
// of the suite is given (everything.ConformanceDir), it compares the
// scenarios only that build has too (compareBuild), and logs which
// scenarios it compared either way.
func TestAgreesWithConformanceSuite(t *testing.T) {
	suite := everything.Conformance(t)
	servers := map[string]string{
		"server-everything": startEverythingHTTP(t),
		"auditee":           auditee.HTTP(t, "").URL,
		"auditee-origin":    auditee.HTTP(t, "origin").URL,
		"auditee-rebinding": auditee.HTTP(t, "rebinding").URL,
	}
	audits := newAudits(servers)
	disagreements := 0
	for name, url := range servers {
		verdicts := runSuite(t, suite, url)
		// The audit speaks the suite's revision: at another, a scenario's
		// checks may not apply (ping is gone from 2026-07-28), and a check
		// not probed agrees with nothing.
		r := audits.at(name, suiteRevision)
		found := map[string]bool{}
		for _, f := range r.Findings {
			found[f.Check] = true
		}
		for _, s := range suiteScenarios {
			suitePass, ran := verdicts[s.scenario]
			if !ran {
				t.Errorf("%s: the suite ran no %s", name, s.scenario)
				continue
			}
			if i := slices.IndexFunc(s.checks, func(id string) bool { return !found[id] && !slices.Contains(r.Passed, id) }); i >= 0 {
				t.Errorf("%s, %s: the audit did not probe %s (%s)", name, s.scenario, s.checks[i], r.Skipped[s.checks[i]])
				continue
			}
			failing := slices.IndexFunc(s.checks, func(id string) bool { return found[id] }) >= 0
			if s.all {
				failing = !slices.ContainsFunc(s.checks, func(id string) bool { return !found[id] })
			}
			t.Logf("%-18s %-26s suite %-4s audit %s", name, s.scenario, pass(suitePass), pass(!failing))
			if suitePass == failing {
				disagreements++
				t.Errorf("%s, %s: the suite says %s, the audit (%v) %s", name, s.scenario, pass(suitePass), s.checks, pass(!failing))
			}
		}
	}
	var compared []string
	for _, s := range suiteScenarios {
		compared = append(compared, s.scenario)
	}
	t.Logf("compared with %s %s: %s", everything.ConformancePackage, everything.ConformanceVersion, strings.Join(compared, ", "))
	compareBuild(t, servers, audits)
	if disagreements == 0 {
		// The comparison can fail: the rebinding fault is seen by both.
		if found := verdictOf(t, suite, servers["auditee-rebinding"], "dns-rebinding-protection"); found {
			t.Error("the suite passes the server without DNS-rebinding protection: the comparison proves nothing")
		}
	}
}

// audits runs the audit of each server at a revision once.
type audits struct {
	urls map[string]string
	done map[[2]string]audit.Result
}

func newAudits(urls map[string]string) *audits {
	return &audits{urls: urls, done: map[[2]string]audit.Result{}}
}

// at is the audit of server name asking for rev.
func (a *audits) at(name, rev string) audit.Result {
	key := [2]string{name, rev}
	if r, ok := a.done[key]; ok {
		return r
	}
	r := probe.Run(context.Background(), config.ServerSpec{Label: name, Transport: config.TransportHTTP, URL: a.urls[name]},
		probe.Options{Handshake: handshake(rev)})
	a.done[key] = r
	return r
}

func pass(ok bool) string {
	if ok {
		return "pass"
	}
	return "fail"
}

// stamp is the time the suite appends to a scenario's directory.
var stamp = regexp.MustCompile(`-\d{4}-\d{2}-\d{2}T[\d-]+Z$`)

// runSuite runs the suite's active server scenarios on url and returns
// each scenario's verdict: true when none of its checks failed.
func runSuite(t *testing.T, suite, url string) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", suite, "server", "--url", url, "-o", dir)
	out, _ := cmd.CombinedOutput() // it exits 1 when a scenario fails
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("the suite wrote no results (%v):\n%s", err, out)
	}
	verdicts := map[string]bool{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			continue
		}
		var checks []struct{ Status string }
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		ok := !slices.ContainsFunc(checks, func(c struct{ Status string }) bool { return c.Status == "FAILURE" })
		// server-NAME-TIMESTAMP: the scenario is what lies between.
		name := strings.TrimPrefix(e.Name(), "server-")
		if loc := stamp.FindStringIndex(name); loc != nil {
			name = name[:loc[0]]
		}
		verdicts[name] = ok
	}
	return verdicts
}

// verdictOf runs one scenario of the suite on url.
func verdictOf(t *testing.T, suite, url, scenario string) bool {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_ = exec.CommandContext(ctx, "node", suite, "server", "--url", url, "--scenario", scenario, "-o", dir).Run()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		return len(b) > 0 && !strings.Contains(string(b), `"FAILURE"`)
	}
	t.Fatalf("the suite wrote no result for %s", scenario)
	return false
}

// startEverythingHTTP starts server-everything's streamable HTTP transport
// on a free loopback port and returns its URL once it listens.
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	entry := everything.Entry(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	// It says so on stderr once it listens.
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "listening on port") {
			go func() {
				for sc.Scan() {
				}
			}()
			return fmt.Sprintf("http://localhost:%d/mcp", port)
		}
	}
	t.Fatal("server-everything ended before it listened")
	return ""
}

// TestEverythingOverStdio: server-everything over stdio passes every check
// of error level; its TypeScript SDK answers no malformed line, a warning.
func TestEverythingOverStdio(t *testing.T) {
	entry := everything.Entry(t)
	spec := config.ServerSpec{Label: "everything", Transport: config.TransportStdio, Command: "node", Args: []string{entry, "stdio"}}
	r := probe.Run(context.Background(), spec, probe.Options{})
	for _, f := range r.Findings {
		if f.Level == audit.Error {
			t.Errorf("error finding on server-everything: %s %s: %s", f.Check, f.Subject, f.Message)
		}
	}
	if got := ids(r); !slices.Contains(got, "jsonrpc.parse-error") {
		t.Errorf("findings %v, want jsonrpc.parse-error among them", got)
	}
	for _, id := range []string{"lifecycle.initialize", "lifecycle.ping", "tools.input-schema", "resources.read", "prompts.get", "completion.complete", "logging.set-level", "stdio.stdin-close"} {
		if !slices.Contains(r.Passed, id) {
			t.Errorf("%s not passed on server-everything (passed %v)", id, r.Passed)
		}
	}
}
