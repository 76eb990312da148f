package everything

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The server's package and the version the tests pin.
const (
	Package = "@modelcontextprotocol/server-everything"
	Version = "2026.8.31"
	// RequireNode names the variable that turns a missing node or npm into
	// a failure.
	RequireNode = "MCPLENS_REQUIRE_NODE"
)

var installed struct {
	once  sync.Once
	entry string // dist/index.js
	err   error
}

// Entry returns the path of the installed server's entry point, installing
// it when needed; it skips t (fails it under MCPLENS_REQUIRE_NODE=1) when
// node or npm is missing or the install fails.
func Entry(t testing.TB) string {
	t.Helper()
	installed.once.Do(func() {
		installed.entry, installed.err = install(Package, Version, filepath.Join("node_modules", Package, "dist", "index.js"))
	})
	needed(t, "server-everything", installed.err)
	return installed.entry
}

// needed skips t when what could not be installed (err), or fails it
// under RequireNode=1.
func needed(t testing.TB, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv(RequireNode) == "1" {
		t.Fatalf("%s: %v (%s=1 makes this a failure)", what, err, RequireNode)
	}
	// Justified skip: without node and npm there is nothing to run; CI
	// sets RequireNode, which makes this a failure there.
	t.Skipf("%s: %v", what, err)
}

// install puts the pinned package in the user's cache directory, beside
// the final place first and then renamed: a concurrent or interrupted
// install never leaves a half-filled directory there. It returns the path
// of entry, relative to the install's directory.
func install(pkg, version, entry string) (string, error) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%s is not installed (apt-get install nodejs npm)", tool)
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "mcplens-test", "npm", filepath.Base(pkg)+"@"+version)
	entry = filepath.Join(dir, entry)
	if _, err := os.Stat(entry); err == nil {
		return entry, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("npm", "install", "--prefix", tmp, "--no-audit", "--no-fund", "--loglevel=error", pkg+"@"+version)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s@%s: %v\n%s", pkg, version, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(entry); statErr != nil {
			return "", err
		}
	}
	return entry, nil
}
