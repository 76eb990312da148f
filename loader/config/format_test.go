package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatsKnowTheirFiles: each format's names are unique, and every
// file a format says its client keeps (a project's, the user's) is one
// that format claims, so a file Locate finds is read as its client's.
func TestFormatsKnowTheirFiles(t *testing.T) {
	names := map[string]bool{}
	for _, f := range formats {
		l := f.layout()
		if l.Name == "" || l.Client == "" || l.serversKey == "" || names[l.Name] {
			t.Errorf("format %+v: want a unique name, a client and a servers key", l.Format)
		}
		names[l.Name] = true
		var files []string
		for goos, home := range map[string]string{"linux": "/h", "darwin": "/Users/h", "windows": `C:\Users\h`} {
			for _, p := range f.userFiles(userDirsOf(goos, func(string) string { return "" }, home)) {
				files = append(files, filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
			}
		}
		if l.project != "" {
			files = append(files, filepath.Join("/p", filepath.FromSlash(l.project)))
		}
		for _, path := range files {
			if got := formatAt(path); got == nil || got.layout().Name != l.Name {
				t.Errorf("formatAt(%q) = %v, want %s", path, got, l.Name)
			}
		}
		for _, k := range []string{l.include, l.exclude} {
			if k != "" && !l.defines(k) {
				t.Errorf("format %s filters tools with %q, which it does not define", l.Name, k)
			}
		}
	}
}
