package scale

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// build is the one build of the server per test binary.
var build struct {
	once      sync.Once
	dir, path string
	err       error
}

// Path returns the path of the built scale server, building it on first
// use into a directory of its own; Cleanup removes it.
func Path(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "mcplens-scale-")
		if build.err != nil {
			return
		}
		build.path = filepath.Join(build.dir, "scale")
		cmd := exec.Command("go", "build", "-o", build.path, "./testdata/servers/scale")
		cmd.Dir = root()
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build ./testdata/servers/scale: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		tb.Fatalf("building the scale server: %v", build.err)
	}
	return build.path
}

// Cleanup removes the built servers. TestMain calls it after m.Run.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	if lean.dir != "" {
		os.RemoveAll(lean.dir)
	}
}

// lean is the one build of testdata/servers/lean per test binary.
var lean struct {
	once      sync.Once
	dir, path string
	err       error
}

// LeanCommand returns the command and arguments of a lean server (see
// testdata/servers/lean) serving server i's first tools tools, answering
// initialize after delay. The server is built with gcc on first use;
// without it, the caller is skipped (failed when MCPLENS_REQUIRE_CC=1).
func LeanCommand(tb testing.TB, i, tools int, delay time.Duration) (string, []string) {
	tb.Helper()
	lean.once.Do(func() {
		cc, err := exec.LookPath("gcc")
		if err != nil {
			lean.err = err
			return
		}
		if lean.dir, lean.err = os.MkdirTemp("", "mcplens-lean-"); lean.err != nil {
			return
		}
		lean.path = filepath.Join(lean.dir, "lean")
		cmd := exec.Command(cc, "-O2", "-static", "-o", lean.path, filepath.Join(root(), "testdata", "servers", "lean", "lean.c"))
		if out, err := cmd.CombinedOutput(); err != nil {
			lean.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if lean.err != nil {
		if os.Getenv("MCPLENS_REQUIRE_CC") == "1" { // CI installs a C compiler
			tb.Fatalf("building the lean server: %v", lean.err)
		}
		tb.Skipf("building the lean server: %v", lean.err)
	}
	rows := [][]byte{}
	for _, t := range Tools(i, tools) {
		rows = append(rows, t.Row())
	}
	file := filepath.Join(lean.dir, fmt.Sprintf("tools-%d-%d.json", i, tools))
	if err := os.WriteFile(file, append(append([]byte("["), bytes.Join(rows, []byte(","))...), ']'), 0o644); err != nil {
		tb.Fatal(err)
	}
	return lean.path, []string{Label(i), strconv.FormatInt(delay.Milliseconds(), 10), file}
}

// Args are the scale server's arguments to serve server i's first tools
// tools, answering initialize after delay.
func Args(i, tools int, delay time.Duration) []string {
	return []string{"-server", strconv.Itoa(i), "-tools", strconv.Itoa(tools), "-delay", delay.String()}
}

// root is the directory of the mcplens module.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}
