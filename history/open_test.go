package history_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/history"
)

// TestOpenBounded opens a history whose second line is over the line
// limit and which holds more records than a history keeps: the long line
// is skipped and said, and the newest MaxRecords records are kept.
func TestOpenBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	var b bytes.Buffer
	b.WriteString(`{"server":"a","tool":"first","arguments":{}}` + "\n")
	b.WriteString(`{"server":"a","tool":"` + strings.Repeat("x", 17<<20) + `"}` + "\n")
	for range history.MaxRecords {
		b.WriteString(`{"server":"a","tool":"t","arguments":{}}` + "\n")
	}
	b.WriteString(`{"server":"a","tool":"last","arguments":{}}` + "\n")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := history.Open(path)
	want := "reading the history: line 2 of " + path + " (skipped) is over the 16MiB line limit"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Open = %v, want %q", err, want)
	}
	rs := l.Records()
	if len(rs) != history.MaxRecords || rs[len(rs)-1].Tool != "last" || rs[0].Tool != "t" {
		t.Errorf("Open kept %d records, the newest %q; want %d ending with last", len(rs), rs[len(rs)-1].Tool, history.MaxRecords)
	}
}
