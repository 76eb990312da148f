package loader_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader"
)

// TestEverythingTasks: VS Code declares tasks (tasks.requests for sampling
// and elicitation), and the reference server shows such a client its two
// async tools; a task-augmented elicitation is answered at once, which the
// server takes as a client that ran it synchronously.
func TestEverythingTasks(t *testing.T) {
	s, names := openEverything(t, loader.Options{
		Handshake: mustClient(t, "vscode").Handshake,
		Answers:   loader.Answers{Elicit: loader.ElicitAcceptDefaults},
	})
	for _, async := range []string{"trigger-elicitation-request-async", "trigger-sampling-request-async"} {
		if !slices.Contains(names, async) {
			t.Errorf("tools %q lack %s under the vscode handshake, which declares tasks", names, async)
		}
	}
	if res := call(t, s, "trigger-elicitation-request-async", `{}`); !strings.Contains(res, "executed synchronously") || !strings.Contains(res, `"action": "accept"`) {
		t.Errorf("trigger-elicitation-request-async = %s, want it accepted at once", res)
	}
}
