package config

import (
	"strings"
	"testing"
)

// TestServerAtIsPosition wants the counted-on positions of a file's
// servers equal to those counted from the start, over lines, a BOM and
// runes of several bytes, and going back.
func TestServerAtIsPosition(t *testing.T) {
	data := []byte(bom + "{\"é\": 1,\n  \"ü\": {\"x\": \"ñ\"}, \"a\": 2,\r\n\n\t\"b\": 3}")
	d := &doc{data: data}
	checked := 0
	for off := range data {
		if off < len(bom) || !strings.HasPrefix(string(data[off:]), `"`) {
			continue
		}
		checked++
		l1, c1 := position(data, off)
		if l2, c2 := d.serverAt(off); l1 != l2 || c1 != c2 {
			t.Errorf("serverAt(%d) = %d:%d, want %d:%d", off, l2, c2, l1, c1)
		}
	}
	if l, c := d.serverAt(len(bom) + 1); l != 1 || c != 2 || checked < 8 {
		t.Errorf("serverAt going back = %d:%d, want 1:2 (%d offsets checked)", l, c, checked)
	}
}
