package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/auditee"
	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/report"
)

// TestMain lets this test binary stand in for mcplens as a demo server, so
// `check` and `call` without a config run the real demo: loadConfig("") names
// the running binary, which here is this one.
func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == demo.Subcommand {
		if err := demo.Serve(os.Args[2], os.Args[3:]...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	auditee.Cleanup()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// builds holds the binaries tests build, once per test binary.
var builds struct {
	mu   sync.Mutex
	dir  string
	done map[string]string // package -> binary
}

// build builds a main package of this module ("..", mcplens, or
// "../testdata/servers/mutating") and returns the binary's path.
func build(t *testing.T, pkg string) string {
	t.Helper()
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if p, ok := builds.done[pkg]; ok {
		return p
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "mcplens-test-")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir, builds.done = dir, map[string]string{}
	}
	out := filepath.Join(builds.dir, fmt.Sprintf("bin%d", len(builds.done)))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	builds.done[pkg] = out
	return out
}

// runChecked runs `mcplens check ARGS...` in process.
func runChecked(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runCheck(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		// The demo under lionagi-legacy loses beta's request (an error).
		{"error found, fail on error", []string{"--policy", "lionagi-legacy"}, exitFound},
		{"error found, fail on warning", []string{"--policy", "lionagi-legacy", "--fail-on", "warning"}, exitFound},
		{"error found, never fail", []string{"--policy", "lionagi-legacy", "--fail-on", "never"}, exitOK},
		// Under claude-code, only anthropic checked: gamma's 71-character
		// name is over the documented 64, a warning and nothing else.
		{"warning found, fail on error", []string{"--policy", "claude-code", "--providers", "anthropic"}, exitOK},
		{"warning found, fail on warning", []string{"--policy", "claude-code", "--providers", "anthropic", "--fail-on", "warning"}, exitFound},
		{"warning found, never fail", []string{"--policy", "claude-code", "--providers", "anthropic", "--fail-on", "never"}, exitOK},
		// Under qwen every name is provider-safe and nothing collides.
		{"nothing found, fail on warning", []string{"--policy", "qwen", "--providers", "all", "--fail-on", "warning"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errb := runChecked(t, tt.args...)
			if code != tt.want {
				t.Errorf("check %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), code, tt.want, out, errb)
			}
			if !strings.Contains(out, "FINDINGS:") {
				t.Errorf("check %s printed no report:\n%s", strings.Join(tt.args, " "), out)
			}
		})
	}
}

func TestCheckUsageErrors(t *testing.T) {
	dir := t.TempDir()
	badLock := filepath.Join(dir, "bad.lock")
	if err := os.WriteFile(badLock, []byte(`{"version": 9, "servers": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	badConfig := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badConfig, []byte(`{"mcpServers": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"unknown policy", []string{"--policy", "nope"}, `unknown policy "nope"`},
		{"unknown provider", []string{"--providers", "openai,nope"}, `unknown provider "nope"`},
		{"unknown format", []string{"--format", "yaml"}, `unknown format "yaml"`},
		{"unknown level", []string{"--fail-on", "info"}, `unknown --fail-on level "info"`},
		{"update without lock", []string{"--update-lock"}, "--update-lock needs --lock FILE"},
		{"two configs", []string{"a.json", "b.json"}, "want at most one config"},
		{"missing config", []string{filepath.Join(dir, "none.json")}, "no such file"},
		{"malformed config", []string{badConfig}, "bad.json"},
		{"missing lock", []string{"--lock", filepath.Join(dir, "none.lock")}, "reading lock"},
		{"malformed lock", []string{"--lock", badLock}, "version 9, want 3"},
		{"unknown flag", []string{"--nope"}, "flag provided but not defined"},
		{"unknown client", []string{"--client", "emacs"}, `unknown client "emacs"`},
		{"unknown client version", []string{"--client", "vscode@0.1"}, `unknown client "vscode@0.1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errb := runChecked(t, tt.args...)
			if code != exitUsage {
				t.Errorf("check %s: exit %d, want %d", strings.Join(tt.args, " "), code, exitUsage)
			}
			if !strings.Contains(errb, tt.want) {
				t.Errorf("check %s: stderr = %q, want it to say %q", strings.Join(tt.args, " "), errb, tt.want)
			}
			if out != "" {
				t.Errorf("check %s: a usage error printed a report:\n%s", strings.Join(tt.args, " "), out)
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	code, out, _ := runChecked(t, "--policy", "lionagi", "--format", "json")
	if code != exitFound {
		t.Errorf("exit %d, want %d (gamma fails lionagi's postcondition)", code, exitFound)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("the JSON report does not parse: %v\n%s", err, out)
	}
	if r.Version != report.Version || r.Policy != "lionagi" || len(r.Servers) != 3 {
		t.Errorf("report: version %d, policy %q, %d servers; want %d, lionagi, 3", r.Version, r.Policy, len(r.Servers), report.Version)
	}
	if g := r.Servers[2]; g.Status != "failed by policy" || !strings.Contains(g.Error, "advertised 3 tool(s) but 1 registered") {
		t.Errorf("gamma: status %q, error %q", g.Status, g.Error)
	}
}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args []string
		pos  string
		fmt  string
	}{
		{[]string{"cfg.json", "--format", "json"}, "cfg.json", "json"},
		{[]string{"--format", "json", "cfg.json"}, "cfg.json", "json"},
		{[]string{"a", "--format=md", "b"}, "a b", "md"},
		{[]string{"--", "--format"}, "--format", "text"},
	}
	for _, tt := range tests {
		o := defaultCheckOptions()
		fset := flag.NewFlagSet("test", flag.ContinueOnError)
		fset.StringVar(&o.format, "format", o.format, "")
		pos, err := parseArgs(fset, tt.args)
		if err != nil {
			t.Fatalf("parseArgs(%q): %v", tt.args, err)
		}
		if got := strings.Join(pos, " "); got != tt.pos || o.format != tt.fmt {
			t.Errorf("parseArgs(%q) = %q, format %q; want %q, %q", tt.args, got, o.format, tt.pos, tt.fmt)
		}
	}
}

// TestHeadlessWhenPiped runs the built binary with stdout to a pipe: it
// prints the check report instead of starting the interface.
func TestHeadlessWhenPiped(t *testing.T) {
	bin := build(t, "..")
	cmd := exec.Command(bin, "--policy", "qwen")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		t.Fatalf("mcplens --policy qwen | ...: %v\n%s", err, errb.String())
	}
	if !strings.HasPrefix(out.String(), "mcplens check · demo config\npolicy qwen") {
		t.Errorf("piped stdout is not the check report:\n%s", out.String())
	}
}

// aliveAtWrite is a report's stdout that notes, at its first write,
// whether the server whose pid is in pidFile was still running.
type aliveAtWrite struct {
	pidFile      string
	wrote, alive bool
	out          bytes.Buffer
}

func (w *aliveAtWrite) Write(p []byte) (int, error) {
	if !w.wrote {
		w.wrote = true
		pid, err := os.ReadFile(w.pidFile)
		stat, statErr := os.ReadFile("/proc/" + strings.TrimSpace(string(pid)) + "/stat")
		w.alive = err == nil && statErr == nil && !strings.Contains(string(stat), ") Z ")
	}
	return w.out.Write(p)
}

// check prints its report as soon as the servers settle: a server slow to
// shut down (this one ignores stdin closing and SIGTERM) is still running
// when the report is written, and is gone when check returns.
func TestCheckReportsBeforeShutdown(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "echo $$ > " + pidFile + "; exec " + hostile.Path(t) + " -mode stubborn"
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"stubborn": map[string]any{"command": "sh", "args": []string{"-c", script}}}})
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	w := &aliveAtWrite{pidFile: pidFile}
	var errb bytes.Buffer
	if code := runCheck([]string{path, "--fail-on", "never"}, nil, w, &errb); code != exitOK {
		t.Fatalf("check: exit %d\n%s%s", code, w.out.String(), errb.String())
	}
	if !w.wrote || !strings.Contains(w.out.String(), "stubborn") {
		t.Fatalf("check wrote no report on the server:\n%s", w.out.String())
	}
	if !w.alive {
		t.Errorf("the report was written only once the server had been shut down")
	}
	pid, _ := os.ReadFile(pidFile)
	proc := "/proc/" + strings.TrimSpace(string(pid))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(proc); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server (%s) outlived check by 10 s", proc)
		}
	}
}
