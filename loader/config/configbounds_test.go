package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader/config"
)

// loadWithin runs LoadWith in the background and fails the test when
// it has not returned by the deadline: a config that blocks must be
// refused, not waited on.
func loadWithin(t *testing.T, path string, opts config.Options, deadline time.Duration) (*config.Config, error) {
	t.Helper()
	type result struct {
		cfg *config.Config
		err error
	}
	done := make(chan result, 1)
	go func() {
		cfg, err := config.LoadWith(path, opts)
		done <- result{cfg, err}
	}()
	select {
	case r := <-done:
		return r.cfg, r.err
	case <-time.After(deadline):
		t.Fatalf("Load(%s) still running after %s", path, deadline)
	}
	return nil, nil
}

// A config nested a million levels deep is refused at the bracket that
// goes past the bound, with its position, in every syntax and through
// every way TOML nests: no parser recursing on it overflows the stack
// (which would end the test binary, not fail the test).
func TestConfigTooDeep(t *testing.T) {
	const n = 1_000_000
	deep := func(open, close string) string {
		n := min(n, 3<<20/len(open)) // within the size limit
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	tests := []struct {
		name, file, text string
		at               string // the position wanted
	}{
		{"json arrays", "deep.json", deep("[", "]"), "deep.json:1:513: "},
		{"json objects", "objects.json", `{"mcpServers":` + deep(`{"a":`, "}") + "}", "objects.json:1:" + itoa(len(`{"mcpServers":`)+511*len(`{"a":`)+1) + ": "},
		{"jsonc after a comment", "mcp.jsonc", "// [[[[ not counted\n/* {{{{ */ " + deep("[", "]"), "mcp.jsonc:2:524: "},
		{"json strings skipped", "strings.json", `{"s": "[[[[{{{{\"[[["}` + "\n" + deep("[", "]"), "strings.json:2:513: "},
		{"toml arrays", "arrays.toml", "a = " + deep("[", "]"), "arrays.toml:1:516: "},
		{"toml inline tables", "inline.toml", "a = " + deep("{a=", "}") + "\n", "inline.toml:1:" + itoa(4+511*3+1) + ": "},
		{"toml dotted keys", "dotted.toml", "a" + strings.Repeat(".a", n) + " = 1\n", "dotted.toml:1:" + itoa(511*2+1) + ": "},
		{"toml table header", "header.toml", "[a" + strings.Repeat(".a", n) + "]\nx = 1\n", "header.toml:1:" + itoa(1+511*2+1) + ": "},
		{"toml strings skipped", "strs.toml", "s = '[[[['\nm = \"\"\"\n{{{{\"\"\"\n# [[[[\n" + "a = " + deep("[", "]"), "strs.toml:5:516: "},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := loadWithin(t, path, config.Options{}, time.Minute)
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("Load(%s) = %v, want a *config.Error", tt.file, err)
			}
			if got := err.Error(); !strings.HasPrefix(got, path+tt.at[len(tt.file):]) ||
				!strings.Contains(got, "nested more than 512 levels deep") {
				t.Errorf("Load(%s) = %q, want %q and nested more than 512 levels deep", tt.file, got, tt.at)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Configs nested as deep as the bound allows still load.
func TestConfigDeepWithinBound(t *testing.T) {
	server := `"s": {"command": "x", "env": {"K": "V"}}`
	// 512 levels: the top level, then 511 arrays.
	json := `{"mcpServers": {` + server + `}, "x": ` + strings.Repeat("[", 511) + strings.Repeat("]", 511) + "}"
	toml := "[mcp_servers.s]\ncommand = \"x\"\n[x" + strings.Repeat(".a", 510) + "]\ny = 1\n"
	for name, text := range map[string]string{"ok.json": json, "ok.toml": toml} {
		if _, err := config.Parse(name, []byte(text)); err != nil {
			t.Errorf("Parse(%s) = %v, want no error", name, err)
		}
	}
	for name, text := range map[string]string{"over.json": strings.Replace(json, "[", "[[", 1), "over.toml": strings.Replace(toml, "[x", "[x.a", 1)} {
		if _, err := config.Parse(name, []byte(text)); err == nil || !strings.Contains(err.Error(), "nested more than 512") {
			t.Errorf("Parse(%s) = %v, want nested more than 512 levels deep", name, err)
		}
	}
}

// A config file over Options.MaxSize is refused unread, with an error naming
// the limit and how to raise it; raised, the same file loads.
func TestConfigTooLarge(t *testing.T) {
	dir := t.TempDir()
	// 5 GB that take no disk: if it were read, the test would run out of
	// memory long before it failed.
	sparse := filepath.Join(dir, "huge.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(5 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = loadWithin(t, sparse, config.Options{}, 10*time.Second)
	want := "over the 4MiB config limit; raise it with --limit config=SIZE or MCPLENS_LIMIT_CONFIG"
	if !isSizeError(err) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "huge.json") {
		t.Errorf("Load(5 GB file) = %v, want %q", err, want)
	}

	// Just over the limit: padding after a valid config.
	body := `{"mcpServers": {"a": {"command": "x"}}}`
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(body+strings.Repeat(" ", 4<<20-len(body)+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(big); !isSizeError(err) {
		t.Errorf("Load(4 MiB + 1 byte) = %v, want the config limit", err)
	}
	if _, err := config.Parse(big, make([]byte, 4<<20+1)); !isSizeError(err) {
		t.Errorf("Parse(4 MiB + 1 byte) = %v, want the config limit", err)
	}
	cfg, err := config.LoadWith(big, config.Options{MaxSize: 8 << 20})
	if err != nil || len(cfg.Servers) != 1 {
		t.Errorf("Load with config=8MiB = %v, %v; want one server", cfg, err)
	}
}

func isSizeError(err error) bool {
	var se *config.SizeError
	return errors.As(err, &se)
}

// An envFile is read within the same bounds: /dev/zero is a finding, not
// a read that never ends.
func TestEnvFileNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	text := `{"servers": {"s": {"command": "x", "envFile": "/dev/zero"}}}`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadWithin(t, path, config.Options{Format: "vscode"}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.Servers[0].Findings, "\n"); !strings.Contains(got, "envFile: /dev/zero is a character device, not a regular file") {
		t.Errorf("findings = %q, want the envFile refused", got)
	}
}
