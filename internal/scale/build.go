package scale

import (
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

// Cleanup removes the built server. TestMain calls it after m.Run.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// Args are the scale server's arguments to serve server i's first tools
// tools, answering initialize after delay.
func Args(i, tools int, delay time.Duration) []string {
	return []string{"-server", strconv.Itoa(i), "-tools", strconv.Itoa(tools), "-delay", delay.String()}
}

// root is the directory of the mcplens module.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
