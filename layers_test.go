package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// loaderFree are the packages that read what a session reports
// (mcpsession's types, a surface, an audit's result) and must not pull in
// the session's machinery: loader and, through it, mcp-go. A recording, a
// report or a diff then builds without a single live-session dependency.
var loaderFree = []string{
	"github.com/mcplens/mcplens/audit",
	"github.com/mcplens/mcplens/capture",
	"github.com/mcplens/mcplens/mcpsession",
	"github.com/mcplens/mcplens/report",
	"github.com/mcplens/mcplens/surface",
	"github.com/mcplens/mcplens/surfacediff",
}

// forbidden says whether a dependency breaks the layering.
func forbidden(path string) bool {
	return path == "github.com/mcplens/mcplens/loader" ||
		path == "github.com/mark3labs/mcp-go" || strings.HasPrefix(path, "github.com/mark3labs/mcp-go/")
}

// breaches lists, for the transitive dependencies of pkg (go list -deps),
// each package that imports a forbidden one, as "importer -> forbidden";
// deps is how many packages go list gave.
func breaches(t *testing.T, pkg string) (found []string, deps int) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to read the import graph: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		deps++
		if forbidden(fields[0]) {
			continue // mcp-go's own packages import each other
		}
		for _, imp := range fields[1:] {
			if forbidden(imp) {
				found = append(found, fields[0]+" -> "+imp)
			}
		}
	}
	return found, deps
}

// TestReadersDoNotImportLoader: report, surfacediff, capture and what they
// read (surface, audit, mcpsession) import neither loader nor mcp-go, even
// through another package; the failure names the import that does.
func TestReadersDoNotImportLoader(t *testing.T) {
	for _, pkg := range loaderFree {
		found, deps := breaches(t, pkg)
		if deps == 0 {
			t.Fatalf("go list -deps %s listed nothing", pkg)
		}
		if len(found) > 0 {
			t.Errorf("%s depends on loader or mcp-go: %s", pkg, strings.Join(found, ", "))
		}
	}
	// The check sees a breach where there is one: surface/settle is where
	// surface meets loader.
	if found, _ := breaches(t, "github.com/mcplens/mcplens/surface/settle"); !slices.Contains(found, "github.com/mcplens/mcplens/surface/settle -> github.com/mcplens/mcplens/loader") {
		t.Fatalf("surface/settle's import of loader not seen: %v", found)
	}
}
