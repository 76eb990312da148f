package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHelpPointsToDocs: mcplens --help ends with the line naming the
// reference pages, and every page it names is in docs/.
func TestHelpPointsToDocs(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"--help"}, nil, nil, &stderr); code != exitOK {
		t.Fatalf("mcplens --help = %d, want 0", code)
	}
	lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; last != docsLine {
		t.Fatalf("--help ends with %q, want the docs line %q", last, docsLine)
	}
	pages := regexp.MustCompile(`docs/[a-z-]+\.md`).FindAllString(docsLine, -1)
	if len(pages) < 3 {
		t.Fatalf("the docs line names %d pages: %q", len(pages), docsLine)
	}
	for _, p := range pages {
		if _, err := os.Stat(filepath.Join("..", p)); err != nil {
			t.Errorf("--help names %s, which is not in the source tree: %v", p, err)
		}
	}
}
