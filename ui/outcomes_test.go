package ui

import (
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
)

// TestLegendNamesEveryOutcome checks the help's legend, built from
// outcomeDocs, names every kind of outcome the model has, every mark of
// the provider columns and every mark before a row's wire name (+, ~, ≠).
func TestLegendNamesEveryOutcome(t *testing.T) {
	l := legend()
	n := 0
	for k := model.OutcomeKind(0); !strings.HasPrefix(k.String(), "OutcomeKind("); k++ {
		if !strings.Contains(l, k.String()+": ") {
			t.Errorf("legend() lacks %q:\n%s", k, l)
		}
		n++
	}
	if docs := outcomeDocs(); len(docs) != n {
		t.Errorf("outcomeDocs() has %d kinds, the model %d", len(docs), n)
	}
	for _, m := range append(markDocs(), rowMarkDocs()...) {
		if !strings.Contains(l, m[0]+" "+m[1]) {
			t.Errorf("legend() lacks the mark %q", m[0])
		}
	}
}
