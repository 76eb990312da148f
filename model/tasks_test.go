package model_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
)

func TestTaskSupport(t *testing.T) {
	for row, want := range map[string]string{
		`{"name":"a","execution":{"taskSupport":"required"}}`: model.TaskRequired,
		`{"name":"a","execution":{"taskSupport":"optional"}}`: model.TaskOptional,
		`{"name":"a","execution":{"taskSupport":"always"}}`:   model.TaskForbidden,
		`{"name":"a","execution":{"taskSupport":7}}`:          model.TaskForbidden,
		`{"name":"a"}`: model.TaskForbidden,
		`[1]`:          model.TaskForbidden,
	} {
		if got := model.TaskSupport(json.RawMessage(row)); got != want {
			t.Errorf("TaskSupport(%s) = %q, want %q", row, got, want)
		}
	}
}

// TestTaskRequiredFinding: a row that must run as a task is a finding
// naming the clients that run no tasks (claude-code) and those that do
// (vscode); an optional one is none.
func TestTaskRequiredFinding(t *testing.T) {
	cat := model.Catalogue{Server: "s", Tools: []model.Tool{
		{Name: "must", NameOK: true, Raw: json.RawMessage(`{"name":"must","execution":{"taskSupport":"required"}}`)},
		{Name: "may", NameOK: true, Raw: json.RawMessage(`{"name":"may","execution":{"taskSupport":"optional"}}`)},
	}}
	var got []model.Finding
	for _, f := range model.Findings([]model.Catalogue{cat}) {
		if f.Kind == model.KindTaskRequired {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Tool != "must" || got[0].Severity != model.Warn {
		t.Fatalf("task findings = %+v, want one on must", got)
	}
	ev := got[0].Evidence
	uncallable, callable, _ := strings.Cut(ev, "; callable under ")
	if !strings.Contains(uncallable, "claude-code") || !strings.Contains(callable, "vscode") || strings.Contains(callable, "claude-code") {
		t.Errorf("evidence %q: want claude-code among the clients that cannot call it, vscode among those that can", ev)
	}
}
