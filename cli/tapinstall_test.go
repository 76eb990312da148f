package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/loader/config/edit"
	"github.com/mcplens/mcplens/relay"
)

// formatFiles are the config files under testdata/configs/formats, each
// copied into a fresh directory under the same relative path (formats are
// told apart by where a file is).
func formatFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "testdata", "configs", "formats")
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".golden") || filepath.Base(p) == ".env" || strings.Contains(p, "notconfig") {
			return err
		}
		out = append(out, p)
		return nil
	})
	if len(out) < 8 {
		t.Fatalf("found %d config files under %s", len(out), root)
	}
	return out
}

// TestTapInstallRoundTrip installs the tap into every config file of every
// format, checks each stdio server now runs the tap in front of its own
// command, that installing again changes nothing, and that uninstalling
// gives back the original bytes exactly.
func TestTapInstallRoundTrip(t *testing.T) {
	for _, src := range formatFiles(t) {
		t.Run(src, func(t *testing.T) {
			orig, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), strings.TrimPrefix(src, filepath.Join("..", "testdata", "configs", "formats")))
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			before, err := config.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			recs := t.TempDir()
			args := []string{"install", path, "--mcplens", "/opt/mcplens", "--record-dir", recs}
			if code := runTap(args, nil, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("install = %d: %s", code, stderr.String())
			}
			tappedBytes, _ := os.ReadFile(path)
			after, err := config.Load(path)
			if err != nil {
				t.Fatalf("the tapped config does not load: %v\n%s", err, tappedBytes)
			}
			tapped := 0
			for i, s := range before.Servers {
				a := after.Servers[i]
				if s.Command == "" || strings.Contains(stderr.String(), "skipping "+s.Label) {
					continue
				}
				tapped++
				// --record comes first for a server that had no args.
				rec := filepath.Join(recs, relay.FileName(s.Label)+".jsonl")
				want := append([]string{"tap", "--name", s.Label, "--record", rec, "--", s.Command}, s.Args...)
				wantAdded := []string{"tap", "--record", rec, "--name", s.Label, "--", s.Command}
				if a.Command != "/opt/mcplens" || !slices.Equal(a.Args, want) && !(len(s.Args) == 0 && slices.Equal(a.Args, wantAdded)) {
					t.Errorf("server %s tapped as %s %q, want /opt/mcplens %q", s.Label, a.Command, a.Args, want)
				}
			}
			if tapped == 0 {
				t.Errorf("no server of %s was tapped: %s", src, stderr.String())
			}
			if !bytes.Contains(stdout.Bytes(), []byte("\n+")) {
				t.Errorf("install printed no diff: %q", stdout.String())
			}
			if code := runTap(args, nil, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("second install = %d: %s", code, stderr.String())
			}
			if again, _ := os.ReadFile(path); !bytes.Equal(again, tappedBytes) {
				t.Errorf("installing twice changed the file:\n%s", again)
			}
			if code := runTap([]string{"uninstall", path}, nil, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("uninstall = %d: %s", code, stderr.String())
			}
			if back, _ := os.ReadFile(path); !bytes.Equal(back, orig) {
				t.Errorf("uninstall left\n%s\nwant the original\n%s", back, orig)
			}
			if _, err := os.Stat(path + edit.BackupSuffix); err == nil {
				t.Error("the backup is left after a clean uninstall")
			}
		})
	}
}

// TestTapInstallRefuses wants a config mcplens cannot read left alone, and
// an unknown --server refused.
func TestTapInstallRefuses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "claude_desktop_config.json")
	os.WriteFile(bad, []byte(`{"mcpServers": {"a": {"command": "x",}`), 0o644)
	var stdout, stderr bytes.Buffer
	if code := runTap([]string{"install", bad}, nil, nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "refusing") {
		t.Errorf("install on a broken config = %d, %q", code, stderr.String())
	}
	good := filepath.Join(dir, "mcp.json")
	os.WriteFile(good, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o644)
	stderr.Reset()
	if code := runTap([]string{"install", good, "--server", "b"}, nil, nil, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `no server "b"`) {
		t.Errorf("install --server b = %d, %q", code, stderr.String())
	}
}

// TestTapInstallBackupIsLatest: the backup holds the bytes from just
// before the latest install. A user's edit made while tapped survives
// uninstall (which keeps the backup and says so); the next install backs
// up the bytes with that edit, and its uninstall gives them back and
// removes the backup.
func TestTapInstallBackupIsLatest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	v0 := `{"mcpServers": {"a": {"args": [], "command": "npx"}}}` // args before command, empty: once a panic
	os.WriteFile(path, []byte(v0), 0o600)
	args := []string{"install", path, "--mcplens", "/opt/mcplens", "--record-dir", filepath.Join(dir, "taps")}
	run := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := runTap(args, nil, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("%s = %d: %s", args[0], code, stderr.String())
		}
		return stderr.String()
	}
	backup := func() string { b, _ := os.ReadFile(path + edit.BackupSuffix); return string(b) }
	run(args...)
	if backup() != v0 {
		t.Fatalf("the first backup holds %q", backup())
	}
	tapped, _ := os.ReadFile(path)
	userEdit := strings.Replace(string(tapped), `{"a"`, `{"b": {"command": "mine"}, "a"`, 1)
	os.WriteFile(path, []byte(userEdit), 0o600)
	v1 := `{"mcpServers": {"b": {"command": "mine"}, "a": {"args": [], "command": "npx"}}}`
	if msg := run("uninstall", path); !strings.Contains(msg, "keeps those changes") || !strings.Contains(msg, edit.BackupSuffix) {
		t.Errorf("uninstall after an edit said %q", msg)
	}
	if got, _ := os.ReadFile(path); string(got) != v1 {
		t.Fatalf("uninstall after an edit left %s, want %s", got, v1)
	}
	run(args...)
	if backup() != v1 {
		t.Fatalf("the backup of the second install holds %q, want the bytes before it %q", backup(), v1)
	}
	if msg := run("uninstall", path); !strings.Contains(msg, "as it was before the install") {
		t.Errorf("uninstall said %q", msg)
	}
	if got, _ := os.ReadFile(path); string(got) != v1 {
		t.Errorf("uninstall left %s, want %s", got, v1)
	}
	if _, err := os.Stat(path + edit.BackupSuffix); err == nil {
		t.Error("the backup is left after a clean uninstall")
	}
}
