package everything

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The official MCP conformance suite, whose server scenarios judge a
// server from outside as mcplens audit does, and the version the tests pin.
const (
	ConformancePackage = "@modelcontextprotocol/conformance"
	ConformanceVersion = "0.1.16"
)

var conformance struct {
	once  sync.Once
	entry string
	err   error
}

// Conformance returns the script of the installed suite (run it with
// node: node SCRIPT server --url URL --scenario S -o DIR), installing it as
// Entry installs the server, and skipping or failing t as Entry does.
//
// The suite asks for node 22 (it imports fs.globSync, which node 20 lacks
// and its server scenarios never call); under an older node the script
// returned is a copy beside the original whose import of globSync is
// replaced by a lookup that is undefined there.
func Conformance(t testing.TB) string {
	t.Helper()
	conformance.once.Do(func() {
		conformance.entry, conformance.err = install(ConformancePackage, ConformanceVersion, filepath.Join("node_modules", ConformancePackage, "dist", "index.js"))
		if conformance.err == nil && nodeMajor() < 22 {
			conformance.entry, conformance.err = withoutGlobSync(conformance.entry)
		}
	})
	needed(t, "conformance", conformance.err)
	return conformance.entry
}

// nodeMajor is the major version of the node on PATH, 0 when unknown.
func nodeMajor() int {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return 0
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".")
	n, _ := strconv.Atoi(major)
	return n
}

// withoutGlobSync writes the copy of the suite's script for node 20.
func withoutGlobSync(entry string) (string, error) {
	b, err := os.ReadFile(entry)
	if err != nil {
		return "", err
	}
	const imported = "import{existsSync as a,globSync as o,"
	if !bytes.Contains(b, []byte(imported)) {
		return "", errors.New("the suite's script does not import globSync as expected; it needs node 22")
	}
	b = bytes.Replace(b, []byte(imported), []byte("import{existsSync as a,"), 1)
	var out bytes.Buffer
	if bytes.HasPrefix(b, []byte("#!")) { // the shebang stays first
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		out.Write(line)
		out.WriteByte('\n')
		b = rest
	}
	out.WriteString(`import * as mcplensFS from "fs";var o=mcplensFS.globSync;`)
	out.Write(b)
	script := filepath.Join(filepath.Dir(entry), "index-node20.js")
	return script, os.WriteFile(script, out.Bytes(), 0o644)
}

// ConformanceDir names the variable that points at a build of the suite
// newer than the pinned one (a checkout of its repository, built: DIR/dist/
// index.js), whose scenarios the pinned version lacks are compared too.
// npm holds no such build; without the variable they are not compared, and
// the tests say so.
const ConformanceDir = "MCPLENS_CONFORMANCE_DIR"

// ConformanceBuild returns the script of the build ConformanceDir names,
// "" when it is unset; it fails t when the directory holds no built
// script. Under node older than 22 a build importing globSync is run from a
// copy without it, as the pinned version is.
func ConformanceBuild(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(ConformanceDir)
	if dir == "" {
		return ""
	}
	script := filepath.Join(dir, "dist", "index.js")
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatalf("%s=%s: %v (build the suite there: npm ci && npm run build)", ConformanceDir, dir, err)
	}
	if nodeMajor() < 22 && bytes.Contains(b, []byte("globSync as o,")) {
		if script, err = withoutGlobSync(script); err != nil {
			t.Fatalf("%s=%s: %v", ConformanceDir, dir, err)
		}
	}
	return script
}
