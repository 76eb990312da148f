//go:build unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcplens/mcplens/model"
)

// secretShapes are the secrets a command line carries in the wild, each
// paired with the argument that carries it. The mutating server is started
// through sh -c, which ignores the arguments after its $0, so that any
// argument can be given.
var secretShapes = []struct{ name, secret, arg string }{
	{"flag value", "KEYSECRET0001", "--api-key KEYSECRET0001"},
	{"GitHub token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
	{"GitHub fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"},
	{"OpenAI project key", "sk-proj-ABCDEFGHIJKLMNOP1234567890", "sk-proj-ABCDEFGHIJKLMNOP1234567890"},
	{"docker -e NAME=key", "sk-abcdefABCDEF1234567890", "-e OPENAI=sk-abcdefABCDEF1234567890"},
	{"Slack bot token", "xoxb-1234567890-ABCDEFGHIJKLMN", "xoxb-1234567890-ABCDEFGHIJKLMN"},
	{"AWS key id", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
	{"database URL password", "PASSSECRET42", "postgres://u:PASSSECRET42@db.internal/app"},
	{"DSN password", "DSNSECRET42", "--dsn=u:DSNSECRET42@tcp(db:3306)/app"},
	{"token in a URL path", "T9aZ81bQ7yXc3Lm0PqR5sV2w", "https://hooks.example.com/services/T0123/B0456/T9aZ81bQ7yXc3Lm0PqR5sV2w"},
	{"expanded ${env:VAR}", "Zq8Yw7Xv6Ut5Sr4Qp3On2Ml1", "${env:MCPLENS_TEST_TOKEN}"},
	{"value of the config's env", "envsecret-value", "--db envsecret-value"},
	{"expanded ${env:VAR} that reads as a word", "plainword", "--profile ${env:MCPLENS_TEST_PASSWORD}"},
}

// secretConfig writes a Cursor config (which expands ${env:VAR}) running
// the mutating server with every secret shape among its arguments.
func secretConfig(t *testing.T, dir string) string {
	t.Helper()
	bin := build(t, "../testdata/servers/mutating")
	args := []string{"-c", "exec " + bin, "sh"}
	for _, s := range secretShapes {
		args = append(args, strings.Fields(s.arg)...)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	cfg := fmt.Sprintf(`{"mcpServers": {"m": {"command": "sh", "args": [%s], "env": {"DB_PASSWORD": "envsecret-value", "MCPLENS_MUTATING_VERSION": "1"}}}}`,
		strings.Join(quoted, ", "))
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A lock pins a server by a fingerprint of its command line and a
// redacted form of it: no secret of the command line is in the file, and
// a changed token is still noticed.
func TestLockHoldsNoSecret(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCPLENS_TEST_TOKEN", "Zq8Yw7Xv6Ut5Sr4Qp3On2Ml1")
	t.Setenv("MCPLENS_TEST_PASSWORD", "plainword")
	cfg := secretConfig(t, dir)
	lock := filepath.Join(dir, "mcplens.lock")
	if code, out, errb := runChecked(t, cfg, "--config-format", "cursor", "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock: exit %d\n%s%s", code, out, errb)
	}
	data, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secretShapes {
		if strings.Contains(string(data), s.secret) {
			t.Errorf("%s: the lock holds %q:\n%s", s.name, s.secret, data)
		}
	}
	l, err := model.ParseLock(data)
	if err != nil {
		t.Fatal(err)
	}
	tr := l.Servers["m"].Endpoint
	if !strings.HasPrefix(tr.Fingerprint, "sha256:") || len(tr.Fingerprint) != len("sha256:")+64 {
		t.Errorf("fingerprint = %q, want sha256: and 64 hex digits", tr.Fingerprint)
	}
	if !strings.HasPrefix(tr.Redacted, "sh -c ") || !strings.Contains(tr.Redacted, "--api-key ****") {
		t.Errorf("redacted endpoint = %q, want the command line with its secrets masked", tr.Redacted)
	}
	code, out, errb := runChecked(t, cfg, "--config-format", "cursor", "--lock", lock, "--format", "json")
	if code != exitOK {
		t.Errorf("check against its own lock: exit %d\n%s%s", code, out, errb)
	}
	for _, s := range secretShapes {
		if strings.Contains(out+errb, s.secret) {
			t.Errorf("%s: the report shows %q:\n%s%s", s.name, s.secret, out, errb)
		}
	}

	// The token rotated: the same server, reached another way.
	t.Setenv("MCPLENS_TEST_TOKEN", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8")
	code, out, errb = runChecked(t, cfg, "--config-format", "cursor", "--lock", lock)
	if code != exitFound || !strings.Contains(out, "with a masked value changed (fingerprint sha256:") {
		t.Errorf("check after the token changed: exit %d, want %d and the endpoint change\n%s%s", code, exitFound, out, errb)
	}
	if strings.Contains(out+errb, "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8") {
		t.Errorf("the report shows the new token:\n%s%s", out, errb)
	}
}

// Rewriting a lock keeps its file mode: a lock kept private stays private.
func TestLockKeepsMode(t *testing.T) {
	dir := t.TempDir()
	cfg := mutatingConfig(t, dir, "1")
	lock := filepath.Join(dir, "mcplens.lock")
	if code, out, errb := runChecked(t, cfg, "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock: exit %d\n%s%s", code, out, errb)
	}
	if err := os.Chmod(lock, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errb := runChecked(t, mutatingConfig(t, dir, "2"), "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock again: exit %d\n%s%s", code, out, errb)
	}
	fi, err := os.Stat(lock)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("rewritten lock has mode %v, want -rw-------", fi.Mode().Perm())
	}
}

// A version 1 lock, which held command lines in clear, is still read; the
// run says to rewrite it, and --update-lock rewrites it without them.
func TestLockVersion1(t *testing.T) {
	dir := t.TempDir()
	cfg := mutatingConfig(t, dir, "1")
	lock := filepath.Join(dir, "mcplens.lock")
	if code, out, errb := runChecked(t, cfg, "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock: exit %d\n%s%s", code, out, errb)
	}
	data, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	// Make it the version 1 lock an earlier mcplens wrote: the endpoint
	// in clear, a token among its arguments.
	v1 := strings.Replace(string(data), `"version": 3`, `"version": 1`, 1)
	start := strings.Index(v1, `"endpoint": {`)
	end := start + strings.Index(v1[start:], "}")
	v1 = v1[:start] + `"transport": {"command": "npx", "args": ["server", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"]` + v1[end:]
	if err := os.WriteFile(lock, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errb := runChecked(t, cfg, "--lock", lock)
	want := "lock " + lock + " is version 1 (it may hold secrets in clear); rewrite it with --update-lock"
	if code != exitOK || !strings.Contains(errb, want) || !strings.Contains(out, want) {
		t.Errorf("check with a version 1 lock: exit %d, want %d and %q on stderr and in the report\n%s%s", code, exitOK, want, out, errb)
	}
	if strings.Contains(out+errb, "ghp_") {
		t.Errorf("the run shows the version 1 lock's token:\n%s%s", out, errb)
	}

	if code, out, errb := runChecked(t, cfg, "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock over a version 1 lock: exit %d\n%s%s", code, out, errb)
	}
	data, _ = os.ReadFile(lock)
	if !strings.Contains(string(data), `"version": 3`) || strings.Contains(string(data), "ghp_") || !strings.Contains(string(data), `"fingerprint": "sha256:`) {
		t.Errorf("the rewritten lock:\n%s", data)
	}
}

// A version 2 lock, whose hashes were of an older canonical form and whose
// endpoints were keyed "transport", is compared as a current one: the
// run notes its version without failing, and --update-lock rewrites it.
func TestLockVersion2(t *testing.T) {
	dir := t.TempDir()
	cfg := mutatingConfig(t, dir, "1")
	lock := filepath.Join(dir, "mcplens.lock")
	if code, out, errb := runChecked(t, cfg, "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock: exit %d\n%s%s", code, out, errb)
	}
	data, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	v2 := strings.Replace(string(data), `"version": 3`, `"version": 2`, 1)
	v2 = strings.ReplaceAll(v2, `"endpoint": {`, `"transport": {`)
	if err := os.WriteFile(lock, []byte(v2), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errb := runChecked(t, cfg, "--lock", lock)
	want := "lock " + lock + " is version 2 (its hashes were recomputed in the canonical form of RFC 8785, which version 3 uses); rewrite it with --update-lock"
	if code != exitOK || !strings.Contains(errb, want) || !strings.Contains(out, want) {
		t.Errorf("check with a version 2 lock: exit %d, want %d and %q on stderr and in the report\n%s%s", code, exitOK, want, out, errb)
	}
	if code, _, errb := runChecked(t, mutatingConfig(t, dir, "2"), "--lock", lock); code != exitFound {
		t.Errorf("check of changed tools against a version 2 lock: exit %d, want %d\n%s", code, exitFound, errb)
	}

	if code, out, errb := runChecked(t, cfg, "--lock", lock, "--update-lock"); code != exitOK {
		t.Fatalf("check --update-lock over a version 2 lock: exit %d\n%s%s", code, out, errb)
	}
	if after, _ := os.ReadFile(lock); string(after) != string(data) {
		t.Errorf("the version 2 lock rewritten:\n%s\nwant what this version wrote:\n%s", after, data)
	}
}

// A listing mcplens knows is incomplete (a cursor that repeats) does not
// prune the lock: the server keeps its pins, and the run says why.
func TestLockPartialListingKeepsPins(t *testing.T) {
	dir := t.TempDir()
	bin := build(t, "../testdata/servers/hostile")
	cfg := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"mcpServers": {"h": {"command": %q, "args": ["-mode", "cursor-loop"]}}}`, bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(dir, "mcplens.lock")
	l := model.NewLock()
	tr := model.Endpoint{Command: bin, Args: []string{"-mode", "cursor-loop"}}
	l.Servers["h"] = model.Pin(tr, []model.Tool{
		{Name: "page1_b", NameOK: true, Raw: []byte(`{"name":"page1_b"}`)},
		{Name: "beyond_the_loop", NameOK: true, Raw: []byte(`{"name":"beyond_the_loop"}`)},
	})
	data, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lock, data, 0o644); err != nil {
		t.Fatal(err)
	}

	_, out, errb := runChecked(t, cfg, "--lock", lock, "--update-lock")
	want := "the lock keeps its 2 pinned tool(s) as they were"
	if !strings.Contains(errb, "server h: its tool listing is incomplete (") || !strings.Contains(errb, want) {
		t.Errorf("stderr does not say why the pins were kept:\n%s", errb)
	}
	if !strings.Contains(out, want) {
		t.Errorf("the report does not say why the pins were kept:\n%s", out)
	}
	after, err := os.ReadFile(lock)
	if err != nil {
		t.Fatal(err)
	}
	got, err := model.ParseLock(after)
	if err != nil {
		t.Fatal(err)
	}
	if keys := strings.Join(sortedKeys(got.Servers["h"].Tools), " "); keys != "beyond_the_loop page1_b" {
		t.Errorf("after --update-lock on an incomplete listing the lock pins %q, want beyond_the_loop page1_b", keys)
	}
}

// --update-lock does not write through a link at the lock path (a cloned
// repository can ship one pointing anywhere), nor over a file that is not
// an mcplens lock; --force replaces the link itself, never its target.
func TestLockPathNotFollowed(t *testing.T) {
	dir := t.TempDir()
	cfg := mutatingConfig(t, dir, "1")
	target := filepath.Join(dir, "precious")
	const precious = "not a lock\n"
	if err := os.WriteFile(target, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "mcplens.lock")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	code, out, errb := runChecked(t, cfg, "--lock", link, "--update-lock")
	if code != exitUsage || !strings.Contains(errb, "is a symbolic link") || !strings.Contains(errb, "--force") {
		t.Errorf("--update-lock through a link: exit %d, want %d and a word on the link\n%s%s", code, exitUsage, out, errb)
	}
	if code, out, errb := runChecked(t, cfg, "--lock", target, "--update-lock"); code != exitUsage || !strings.Contains(errb, "--force") {
		t.Errorf("--update-lock over a file that is not a lock: exit %d, want %d\n%s%s", code, exitUsage, out, errb)
	}
	if code, out, errb := runChecked(t, cfg, "--lock", link, "--update-lock", "--force"); code != exitOK {
		t.Errorf("--update-lock --force through a link: exit %d\n%s%s", code, out, errb)
	}
	if b, _ := os.ReadFile(target); string(b) != precious {
		t.Errorf("the link's target was written: %q", b)
	}
	fi, err := os.Lstat(link)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("after --force the lock path is %v (%v), want a regular file", fi, err)
	}
	if data, _ := os.ReadFile(link); !strings.Contains(string(data), `"version": 3`) {
		t.Errorf("the lock written in the link's place:\n%s", data)
	}
}

// A lock path that is a pipe or a device is refused at once, even with
// --force: opening a pipe waits for a writer, and a device never ends.
func TestLockPathNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	cfg := mutatingConfig(t, dir, "1")
	fifo := filepath.Join(dir, "mcplens.lock")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--lock", fifo}, {"--lock", fifo, "--update-lock", "--force"}, {"--lock", os.DevNull, "--update-lock", "--force"}} {
		code, out, errb := runChecked(t, append([]string{cfg}, args...)...)
		if code == exitOK || !strings.Contains(errb, "not a regular file") {
			t.Errorf("check %s: exit %d, want a failure naming the file\n%s%s", strings.Join(args, " "), code, out, errb)
		}
	}
}

// A device is not a terminal: `mcplens CONFIG >/dev/null` prints the
// check report (to nowhere) rather than drawing the interface.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true", os.DevNull)
	}

	bin := build(t, "..")
	cmd := exec.Command(bin, mutatingConfig(t, t.TempDir(), "1"))
	cmd.Stdout = f
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Errorf("mcplens CONFIG >/dev/null: %v\n%s", err, errb.String())
	}
}
