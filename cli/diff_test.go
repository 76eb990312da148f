package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/surfacediff"
)

var updateDiff = flag.Bool("update", false, "rewrite the golden files of diff")

// A demoServer is a demo-style server of this test binary advertising
// exactly tools; a command that does not exist when broken.
type demoServer struct {
	label  string
	tools  []string
	broken bool
}

// demoFile writes a Claude Code config (.mcp.json format) of servers, in
// order, to dir/name and returns its path.
func demoFile(t *testing.T, dir, name string, servers ...demoServer) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("{\"mcpServers\": {\n")
	for i, s := range servers {
		cmd := exe
		if s.broken {
			cmd = filepath.Join(dir, "no-such-server")
		}
		args := append([]string{demo.Subcommand, s.label}, s.tools...)
		quoted := make([]string, len(args))
		for j, a := range args {
			quoted[j] = fmt.Sprintf("%q", a)
		}
		sep := ","
		if i == len(servers)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  %q: {\"command\": %q, \"args\": [%s]}%s\n", s.label, cmd, strings.Join(quoted, ", "), sep)
	}
	b.WriteString("}}\n")
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snapshotOf runs check on config and returns the snapshot it wrote.
func snapshotOf(t *testing.T, config string) string {
	t.Helper()
	out := strings.TrimSuffix(config, filepath.Ext(config)) + ".snapshot.json"
	if code, stdout, stderr := runChecked(t, config, "--snapshot", out, "--fail-on", "never", "--client", "mcplens"); code != exitOK {
		t.Fatalf("check %s --snapshot: exit %d\n%s%s", config, code, stdout, stderr)
	}
	return out
}

// runDiffed runs `mcplens diff ARGS...` in process.
func runDiffed(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	code = runDiff(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

// normalize replaces what changes from run to run in diff output: the
// temporary folder and the test binary's path.
func normalize(t *testing.T, s, dir string) string {
	t.Helper()
	exe, _ := os.Executable()
	s = strings.ReplaceAll(s, exe, "$EXE")
	return strings.ReplaceAll(s, dir, "$DIR")
}

// golden compares got with testdata/diff/NAME, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "testdata", "diff", name)
	if *updateDiff {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from its golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// diffCases are surfaces of real servers that differ by each change
// class, with the policy that shows it.
var diffCases = []struct {
	name   string
	policy string
	a, b   []demoServer
	want   []surfacediff.Class
}{
	{
		name: "tools", policy: "lionagi-legacy",
		a:    []demoServer{{label: "alpha", tools: []string{"request", "retired"}}},
		b:    []demoServer{{label: "alpha", tools: []string{"request", "fresh"}}},
		want: []surfacediff.Class{surfacediff.Added, surfacediff.Removed},
	},
	{
		// A later server takes request over: alpha's is displaced.
		name: "displaced", policy: "lionagi-legacy-update",
		a:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other"}}},
		b:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other", "request"}}},
		want: []surfacediff.Class{surfacediff.Added, surfacediff.Displaced, surfacediff.FindingNew},
	},
	{
		// symfonic prefixes a name once two servers advertise it, and the
		// dot it puts in fails OpenAI.
		name: "renamed", policy: "symfonic",
		a:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other"}}},
		b:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other", "request"}}},
		want: []surfacediff.Class{surfacediff.NameChanged, surfacediff.ProviderError, surfacediff.Added},
	},
	{
		// The other way: the prefix goes, and OpenAI accepts the name.
		name: "renamed-back", policy: "symfonic",
		a:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other", "request"}}},
		b:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other"}}},
		want: []surfacediff.Class{surfacediff.NameChanged, surfacediff.ProviderChanged, surfacediff.Removed, surfacediff.FindingGone},
	},
	{
		// beta's request lost to alpha's; once alpha drops it, beta's is
		// registered.
		name: "outcome", policy: "lionagi-legacy",
		a:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"request"}}},
		b:    []demoServer{{label: "alpha", tools: []string{"other"}}, {label: "beta", tools: []string{"request"}}},
		want: []surfacediff.Class{surfacediff.Added, surfacediff.Removed, surfacediff.OutcomeChanged, surfacediff.FindingGone},
	},
	{
		name: "servers", policy: "lionagi-legacy",
		a:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", tools: []string{"other"}}, {label: "gone", tools: []string{"x"}}},
		b:    []demoServer{{label: "alpha", tools: []string{"request"}}, {label: "beta", broken: true}, {label: "new", tools: []string{"y"}}},
		want: []surfacediff.Class{surfacediff.ServerAdded, surfacediff.ServerRemoved, surfacediff.ServerFailed, surfacediff.FindingNew},
	},
}

// TestDiffClasses diffs snapshots of real servers for each change class:
// the text and Markdown outputs are golden, the classes found are those
// wanted, and --fail-on fails the run on exactly the classes present.
func TestDiffClasses(t *testing.T) {
	for _, tt := range diffCases {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			a := snapshotOf(t, demoFile(t, dir, "a.json", tt.a...))
			b := snapshotOf(t, demoFile(t, dir, "b.json", tt.b...))
			_, text, errb := runDiffed(t, a, b, "--policy", tt.policy, "--fail-on", "none")
			golden(t, tt.name+".txt", normalize(t, text, dir))
			_, md, _ := runDiffed(t, a, b, "--policy", tt.policy, "--format", "markdown")
			golden(t, tt.name+".md", normalize(t, md, dir))
			if errb != "" {
				t.Errorf("stderr: %s", errb)
			}
			found := classesIn(t, a, b, tt.policy)
			for _, c := range tt.want {
				if !slices.Contains(found, c) {
					t.Errorf("classes found %v, want %s among them", found, c)
				}
			}
			for _, c := range surfacediff.Classes() {
				want := exitOK
				if slices.Contains(found, c) {
					want = exitFound
				}
				if code, _, errb := runDiffed(t, a, b, "--policy", tt.policy, "--fail-on", string(c)); code != want {
					t.Errorf("--fail-on %s: exit %d, want %d (found %v)\n%s", c, code, want, found, errb)
				}
			}
		})
	}
}

// classesIn returns the classes of the changes from a to b.
func classesIn(t *testing.T, a, b, policy string) []surfacediff.Class {
	t.Helper()
	var found []surfacediff.Class
	for _, c := range surfacediff.Classes() {
		// --fail-on all fails on any class; one class at a time tells which.
		if code, _, _ := runDiffed(t, a, b, "--policy", policy, "--fail-on", string(c), "--format", "json"); code == exitFound {
			found = append(found, c)
		}
	}
	return found
}

// TestDiffDefinitionChanged diffs the mutating server between its two
// versions, config against config (connecting to both) and lock against
// config (definitions only).
func TestDiffDefinitionChanged(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := mutatingConfig(t, dir, "1"), mutatingConfig(t, dir, "2")
	code, text, errb := runDiffed(t, v1, v2, "--policy", "lionagi")
	if code != exitFound {
		t.Errorf("diff v1 v2: exit %d, want %d\n%s", code, exitFound, errb)
	}
	golden(t, "mutating.txt", normalize(t, text, dir))

	lock := filepath.Join(dir, "mcplens.lock")
	if code, out, errb := runChecked(t, v1, "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock: exit %d\n%s%s", code, out, errb)
	}
	code, text, errb = runDiffed(t, lock, v2, "--fail-on", "definition-changed")
	if code != exitFound {
		t.Errorf("diff lock v2 --fail-on definition-changed: exit %d, want %d\n%s", code, exitFound, errb)
	}
	golden(t, "mutating-lock.txt", normalize(t, text, dir))
	if code, _, errb := runDiffed(t, lock, v2, "--fail-on", "displaced,provider-error"); code != exitOK {
		t.Errorf("diff lock v2 --fail-on displaced,provider-error: exit %d, want %d (a lock has no registry)\n%s", code, exitOK, errb)
	}
}

// TestDiffGit builds a repository with two commits of a .mcp.json and
// diffs the first with the working tree, both ways of naming it.
func TestDiffGit(t *testing.T) {
	dir := t.TempDir()
	git := gitIn(t, dir)
	git("init", "-q")
	demoFile(t, dir, ".mcp.json", demoServer{label: "alpha", tools: []string{"request", "retired"}})
	git("add", ".mcp.json")
	git("commit", "-q", "-m", "one")
	demoFile(t, dir, ".mcp.json", demoServer{label: "alpha", tools: []string{"request"}}, demoServer{label: "beta", tools: []string{"request"}})
	git("commit", "-q", "-a", "-m", "two")

	path := filepath.Join(dir, ".mcp.json")
	code, text, errb := runDiffed(t, "--git", "HEAD~1", path, "--policy", "lionagi-legacy")
	if code != exitFound {
		t.Errorf("diff --git HEAD~1 PATH: exit %d, want %d\n%s", code, exitFound, errb)
	}
	golden(t, "git.txt", normalize(t, text, dir))
	if code, again, errb := runDiffed(t, "--git", "HEAD~1:"+path, "--policy", "lionagi-legacy"); code != exitFound || again != text {
		t.Errorf("diff --git HEAD~1:PATH: exit %d, want %d, output\n%s\nwant\n%s%s", code, exitFound, again, text, errb)
	}
	if code, _, errb := runDiffed(t, "--git", "HEAD:"+path, "--policy", "lionagi-legacy"); code != exitOK {
		t.Errorf("diff --git HEAD:PATH of an unchanged file: exit %d, want %d\n%s", code, exitOK, errb)
	}
	// A config the change adds: every server is new, nothing fails.
	added := demoFile(t, dir, "added.json", demoServer{label: "alpha", tools: []string{"request"}})
	if code, out, errb := runDiffed(t, "--git", "HEAD", added, "--policy", "lionagi-legacy"); code != exitOK || !strings.Contains(out, "server-added") {
		t.Errorf("diff --git HEAD of a new file: exit %d, want %d, saying server-added:\n%s%s", code, exitOK, out, errb)
	}
	if code, _, errb := runDiffed(t, "--git", "no-such-ref:"+path); code != exitUsage || !strings.Contains(errb, "no-such-ref: not a commit") {
		t.Errorf("diff --git no-such-ref: exit %d, want %d, saying it is not a commit: %s", code, exitUsage, errb)
	}
}

// gitIn returns a function that runs git in dir, failing the test when
// it fails.
func gitIn(t *testing.T, dir string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestDiffGitRefIsNeverAnOption: in a real repository, a --git ref that
// git would read as an option (--output=FILE has git show write FILE) is
// refused as no commit, and no file is written; so is a path git could
// not name.
func TestDiffGitRefIsNeverAnOption(t *testing.T) {
	dir := t.TempDir()
	git := gitIn(t, dir)
	git("init", "-q")
	path := demoFile(t, dir, ".mcp.json", demoServer{label: "alpha", tools: []string{"request"}})
	git("add", ".mcp.json")
	git("commit", "-q", "-m", "one")
	out := filepath.Join(t.TempDir(), "written")
	tests := []struct {
		name, spec, want string
	}{
		{"output", "--output=" + out + ":" + path, "not a commit"},
		{"output with a commit", "--output=" + out, "not a commit"},
		{"help", "--help:" + path, "not a commit"},
		{"short option", "-p:" + path, "not a commit"},
		{"end of options", "--end-of-options:" + path, "not a commit"},
		{"a folder", "HEAD:" + dir, "want a file's path"},
		{"a control byte", "HEAD:" + dir + "/x\x1b]0;t\a.json", "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"--git", tt.spec}
			if !strings.Contains(tt.spec, ":") {
				args = append(args, path)
			}
			code, _, errb := runDiffed(t, args...)
			if code != exitUsage || !strings.Contains(errb, tt.want) {
				t.Errorf("diff --git %q: exit %d, stderr %q; want %d saying %q", tt.spec, code, errb, exitUsage, tt.want)
			}
			if strings.ContainsAny(errb, "\x1b\a") {
				t.Errorf("diff --git %q: stderr %q holds control bytes", tt.spec, errb)
			}
			if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("diff --git %q wrote %s (%v)", tt.spec, out, err)
			}
		})
	}
}

func TestDiffUsage(t *testing.T) {
	dir := t.TempDir()
	a := demoFile(t, dir, "a.json", demoServer{label: "alpha", tools: []string{"request"}})
	for _, args := range [][]string{
		{a},
		{a, a, a},
		{a, a, "--fail-on", "bogus"},
		{a, a, "--format", "yaml"},
		{a, a, "--policy", "bogus"},
		{a, a, "--client", "vscode", "--clients", "all"},
		{"--git", "HEAD"},
	} {
		if code, _, _ := runDiffed(t, args...); code != exitUsage {
			t.Errorf("diff %v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestDiffMasksSecrets: a token in a server's arguments reaches neither
// the snapshot nor any format of the diff, even where the endpoint
// changed and is shown.
func TestDiffMasksSecrets(t *testing.T) {
	dir := t.TempDir()
	bin := build(t, "../testdata/servers/mutating") // it reads no arguments
	write := func(name, token string) string {
		cfg := fmt.Sprintf(`{"mcpServers": {"alpha": {"command": %q, "args": ["--api-key", %q]}}}`, bin, token)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a, b := write("a.json", "QTOKEN42SECRET"), write("b.json", "NEWTOKEN77SECRET")
	snap := snapshotOf(t, a)
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "QTOKEN42SECRET") {
		t.Errorf("the snapshot holds the token:\n%s", data)
	}
	for _, format := range []string{"text", "markdown", "json", "sarif"} {
		_, out, errb := runDiffed(t, snap, b, "--format", format, "--client", "mcplens")
		if !strings.Contains(out, "server-changed") {
			t.Errorf("%s diff does not say the endpoint changed:\n%s", format, out)
		}
		for _, secret := range []string{"QTOKEN42SECRET", "NEWTOKEN77SECRET"} {
			if strings.Contains(out+errb, secret) {
				t.Errorf("%s diff shows %s:\n%s%s", format, secret, out, errb)
			}
		}
	}
}

// TestDiffClients compares as two clients, each under its own policy.
func TestDiffClients(t *testing.T) {
	dir := t.TempDir()
	a := demoFile(t, dir, "a.json", demoServer{label: "alpha", tools: []string{"request"}})
	b := demoFile(t, dir, "b.json", demoServer{label: "alpha", tools: []string{"request"}}, demoServer{label: "beta", tools: []string{"request"}})
	// beta's request is dropped under lionagi-legacy, a finding and no
	// failure; under vscode's policy both are registered.
	code, out, errb := runDiffed(t, a, b, "--clients", "mcplens,vscode", "--format", "json")
	if code != exitOK {
		t.Errorf("exit %d, want %d\n%s", code, exitOK, errb)
	}
	var doc struct {
		Diffs []struct {
			Policy, Client string
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, d := range doc.Diffs {
		got = append(got, d.Client+" "+d.Policy)
	}
	if want := []string{"mcplens lionagi-legacy", "vscode@1.105 vscode"}; !slices.Equal(got, want) {
		t.Errorf("diffs = %q, want %q", got, want)
	}
	if code, _, _ := runDiffed(t, snapshotOf(t, a), b, "--clients", "all"); code != exitUsage {
		t.Errorf("--clients with a snapshot side: exit %d, want %d", code, exitUsage)
	}
}

// TestCheckSnapshotRefusesOtherFiles: --snapshot replaces a snapshot, and
// nothing else.
func TestCheckSnapshotRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	cfg := demoFile(t, dir, "a.json", demoServer{label: "alpha", tools: []string{"request"}})
	other := filepath.Join(dir, "notes.json")
	if err := os.WriteFile(other, []byte(`{"mine": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errb := runChecked(t, cfg, "--snapshot", other); code != exitFound || !strings.Contains(errb, "writing snapshot") {
		t.Errorf("--snapshot over another file: exit %d, want %d saying so: %s", code, exitFound, errb)
	}
	if data, _ := os.ReadFile(other); string(data) != `{"mine": true}` {
		t.Errorf("the file was replaced: %s", data)
	}
	snap := snapshotOf(t, cfg)
	if code, _, errb := runChecked(t, cfg, "--snapshot", snap, "--fail-on", "never"); code != exitOK {
		t.Errorf("--snapshot over a snapshot: exit %d\n%s", code, errb)
	}
}
