package hostile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/mcplens/mcplens/loader/config"
)

// Modes is every fault the server commits, by mode name.
var Modes = []string{
	"exit-start", "exit-initialize", "exit-list", "exit-call",
	"silent-initialize", "silent-list",
	"junk", "stray", "bad-rows", "many", "cursor-loop", "escapes", "huge",
	"list-changed-flood", "list-changed-flood-big", "stderr-flood", "stubborn", "slow-call",
	"no-newline", "huge-line", "deep-answer", "string-id", "batch-answer", "nan-answer",
	"stop-reading",
}

// build is the one build of the server per test binary.
var build struct {
	once      sync.Once
	dir, path string
	err       error
}

// Path returns the path of the built server, building it on first use. The
// build goes to a directory of its own, shared by every test of the binary;
// Cleanup removes it.
func Path(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "mcplens-hostile-")
		if build.err != nil {
			return
		}
		build.path = filepath.Join(build.dir, "hostile")
		build.err = goBuild(build.path, "./testdata/servers/hostile")
	})
	if build.err != nil {
		t.Fatalf("building the hostile server: %v", build.err)
	}
	return build.path
}

// Cleanup removes the built server. TestMain calls it after m.Run.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// Spec is a server labelled label running the hostile server in mode, with
// extra flags.
func Spec(t testing.TB, label, mode string, flags ...string) config.ServerSpec {
	t.Helper()
	return config.ServerSpec{Label: label, Command: Path(t), Args: append([]string{"-mode", mode}, flags...)}
}

// Root returns the directory of the mcplens module.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// goBuild builds the package pkg (relative to the module root) into out.
func goBuild(out, pkg string, flags ...string) error {
	args := append(append([]string{"build", "-o", out}, flags...), pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = Root()
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// Build builds the package pkg (a path relative to the module root, such as
// "." for mcplens itself) into dir and returns the binary's path.
func Build(t testing.TB, dir, pkg, name string, flags ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	if err := goBuild(out, pkg, flags...); err != nil {
		t.Fatal(err)
	}
	return out
}
