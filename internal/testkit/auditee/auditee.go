package auditee

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader/config"
)

// Modes maps each fault the server commits to the checks of mcplens audit
// that name it (one, but for rebinding, which is two faults), the
// transport it is committed over and the revision it exists at: "" for a
// fault of every revision, which the tests commit at each; a revision for
// a fault of one era (logging/setLevel and notifications/initialized are
// gone from 2026-07-28; cache hints and Mcp-Method came with it).
var Modes = []struct {
	Mode                string
	Checks              []string
	Transport, Protocol string
}{
	{"cursor-loop", []string{"listing.cursor-loop"}, "stdio", ""},
	{"wrong-code", []string{"jsonrpc.unknown-method"}, "stdio", ""},
	{"id-changed", []string{"jsonrpc.id-echo"}, "stdio", ""},
	{"bad-schema", []string{"tools.input-schema"}, "stdio", ""},
	{"stdout-noise", []string{"stdio.stdout-noise"}, "stdio", ""},
	{"ignore-stdin-close", []string{"stdio.stdin-close"}, "stdio", ""},
	{"echo-version", []string{"lifecycle.unknown-version"}, "stdio", ""},
	{"answer-notification", []string{"jsonrpc.notification-answered"}, "stdio", ""},
	{"silent-parse-error", []string{"jsonrpc.parse-error"}, "stdio", ""},
	{"any-log-level", []string{"logging.invalid-level"}, "stdio", "2025-11-25"},
	{"undeclared-changes", []string{"lifecycle.notifications"}, "stdio", "2025-11-25"},
	{"no-cache-hints", []string{"caching.hints"}, "stdio", "2026-07-28"},
	{"bad-versions", []string{"lifecycle.version"}, "stdio", "2026-07-28"},
	{"unasked-log", []string{"lifecycle.notifications"}, "stdio", "2026-07-28"},
	{"origin", []string{"http.origin"}, "http", ""},
	{"rebinding", []string{"http.origin", "http.host"}, "http", ""},
	{"mcp-method-ignored", []string{"http.mcp-method"}, "http", "2026-07-28"},
	{"one-stream", []string{"http.multiple-streams"}, "http", "2025-11-25"},
	{"meta-optional", []string{"stateless.meta-required"}, "http", "2026-07-28"},
	{"removed-200", []string{"stateless.removed-methods"}, "http", "2026-07-28"},
	{"ping-served", []string{"stateless.removed-methods"}, "http", "2026-07-28"},
	{"unknown-200", []string{"jsonrpc.unknown-method"}, "http", "2026-07-28"},
	{"no-server-info", []string{"lifecycle.server-info"}, "stdio", "2026-07-28"},
	{"undeclared-prompts", []string{"lifecycle.capabilities"}, "stdio", ""},
	{"bare-unsupported", []string{"stateless.unsupported-version"}, "stdio", "2026-07-28"},
}

var build struct {
	once      sync.Once
	dir, path string
	err       error
}

// Path returns the built server, building it on first use; Cleanup
// removes it.
func Path(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "mcplens-auditee-")
		if build.err == nil {
			build.path = filepath.Join(build.dir, "auditee")
			cmd := exec.Command("go", "build", "-o", build.path, "./testdata/servers/auditee")
			cmd.Dir = hostile.Root()
			if out, err := cmd.CombinedOutput(); err != nil {
				build.err = &buildError{string(out)}
			}
		}
	})
	if build.err != nil {
		t.Fatalf("building the auditee server: %v", build.err)
	}
	return build.path
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build: " + e.out }

// Cleanup removes the built server. TestMain calls it after m.Run.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// Stdio is the server over stdio in mode ("" for correct).
func Stdio(t testing.TB, mode string) config.ServerSpec {
	return config.ServerSpec{Label: "auditee", Transport: config.TransportStdio, Command: Path(t), Args: []string{"-mode", mode}}
}

// HTTP starts the server over streamable HTTP on a loopback port in mode
// and returns its spec; the server ends with the test.
func HTTP(t testing.TB, mode string) config.ServerSpec {
	t.Helper()
	cmd := exec.Command(Path(t), "-mode", mode, "-http", "127.0.0.1:0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the server ends with its stdin
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the auditee server gave no URL: %v", err)
	}
	return config.ServerSpec{Label: "auditee", Transport: config.TransportHTTP, URL: strings.TrimSpace(line)}
}
