package loader_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
)

// TestSetRoots: changing the roots tells a server of a handshake that
// declares roots with listChanged (notifications/roots/list_changed); the
// reference server asks roots/list again and its get-roots-list tool sees
// the new folders. Setting the same roots again tells nobody.
func TestSetRoots(t *testing.T) {
	before, after := t.TempDir(), t.TempDir()
	s, _ := openEverything(t, loader.Options{
		Handshake: mustClient(t, "vscode").Handshake,
		Answers:   loader.Answers{Roots: []string{before}},
	})
	if res := call(t, s, "get-roots-list", `{}`); !strings.Contains(res, "file://"+before) {
		t.Fatalf("get-roots-list = %s, want %s", res, before)
	}
	// The server takes new roots when mcplens's answer to its roots/list
	// reaches it, which a call may overtake; it then logs "Roots updated".
	asked := func() int {
		n := 0
		for _, f := range s.FrameLog("everything").Frames() {
			if m, _ := method(t, f.Bytes); f.Dir == mcpsession.In && m == "notifications/message" && strings.Contains(string(f.Bytes), "Roots updated") {
				n++
			}
		}
		return n
	}
	n := asked()
	if told := s.SetRoots([]string{after}); len(told) != 1 || told[0] != "everything" {
		t.Fatalf("SetRoots told %q, want everything", told)
	}
	for deadline := time.Now().Add(settleTimeout); asked() == n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server did not take the roots again after notifications/roots/list_changed")
		}
	}
	if res := call(t, s, "get-roots-list", `{}`); !strings.Contains(res, "file://"+after) || strings.Contains(res, "file://"+before) {
		t.Errorf("get-roots-list after SetRoots = %s, want %s alone", res, after)
	}
	if told := s.SetRoots([]string{after}); len(told) != 0 {
		t.Errorf("SetRoots with the same roots told %q, want nobody", told)
	}
	if got := s.Roots(); len(got) != 1 || got[0] != after {
		t.Errorf("Roots = %q, want [%s]", got, after)
	}
}
