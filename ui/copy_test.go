package ui

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcplens/mcplens/model"
)

func TestExtension(t *testing.T) {
	tests := []struct {
		name, mime, want string
	}{
		{"png", "image/png", ".png"},
		{"jpeg", "image/jpeg", ".jpg"},
		{"svg", "image/svg+xml", ".svg"},
		{"parameters and case", "Text/Plain; charset=utf-8", ".txt"},
		{"json", "application/json", ".json"},
		{"unknown", "application/x-mcplens", ".bin"},
		{"empty", "", ".bin"},
		{"title escape", "image/png\x1b]0;pwned\a", ".bin"},
		{"escape as subtype", "x/\x1b]0;pwned\a", ".bin"},
		{"newline", "text/plain\nevil", ".bin"},
		{"path", "image/../../../etc/passwd", ".bin"},
		{"separator", "a/b/c", ".bin"},
		{"long", "image/" + strings.Repeat("p", 1<<20), ".bin"},
	}
	for _, tt := range tests {
		if got := extension(tt.mime); got != tt.want {
			t.Errorf("%s: extension(%.40q) = %q, want %q", tt.name, tt.mime, got, tt.want)
		}
	}
}

// TestSaveHostileMIMETypes: o on a result whose items carry hostile
// mimeTypes saves real files whose names come from the fixed table (or
// .bin), never from the server's text, and neither the result's lines nor
// the note of what was saved holds a control byte.
func TestSaveHostileMIMETypes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	c := common{width: 80, height: 24, styles: DefaultStyles(true), keys: DefaultKeyMap(), redact: model.NewRedactor()}
	data := base64.StdEncoding.EncodeToString([]byte("bytes"))
	hostile := []string{"image/png", "image/png\x1b]0;pwned\a", "x/\x1b]0;pwned\a", "text/plain\nname", "image/../../x", "audio/wav\r", "application/pdf; x=\"\x00\""}
	var items []map[string]any
	for _, m := range hostile {
		items = append(items, map[string]any{"type": "image", "mimeType": m, "data": data})
	}
	result, err := json.Marshal(map[string]any{"content": items})
	if err != nil {
		t.Fatal(err)
	}
	lines, saves := c.resultContent(result)
	for _, l := range lines {
		if plain := ansi.Strip(l); strings.ContainsFunc(plain, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("the result shows %q", plain)
		}
	}
	if len(saves) != len(hostile) {
		t.Fatalf("%d items to save, want %d", len(saves), len(hostile))
	}
	msg, ok := saveItems("media", saves)().(savedMsg)
	if !ok || msg.err != nil {
		t.Fatalf("saving: %+v", msg)
	}
	if note := msg.note(); strings.ContainsFunc(note, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		t.Errorf("the note holds a control byte: %q", note)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// The table's names for image/png, audio/wav with a trailing space,
	// application/pdf with a parameter; .bin for the rest.
	want := []string{"mcplens-media-2.bin", "mcplens-media-3.bin", "mcplens-media-4.bin",
		"mcplens-media.bin", "mcplens-media.pdf", "mcplens-media.png", "mcplens-media.wav"}
	if slices.Sort(names); !slices.Equal(names, want) {
		t.Errorf("saved %q, want %q", names, want)
	}
}
