package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/audit"
)

// TestChecksAreWellFormed: ids unique, each with a level, a section and
// what it probes.
func TestChecksAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range audit.Checks() {
		if seen[c.ID] || c.Section == "" || c.Probes == "" || (c.Level != audit.Error && c.Level != audit.Warning) {
			t.Errorf("check %+v: duplicate, or without section, probe or level", c)
		}
		seen[c.ID] = true
	}
}

// TestDocsListEveryCheck: docs/audit.md has a row for each check, with its
// level.
func TestDocsListEveryCheck(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range audit.Checks() {
		if row := fmt.Sprintf("| `%s` | %s | %s |", c.ID, c.Level, c.Section); !strings.Contains(string(b), row) {
			t.Errorf("docs/audit.md has no row %q", row)
		}
	}
}
