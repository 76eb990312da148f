package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
)

// TestCallStreamsAndSaysWhy: `mcplens call` prints the request as it goes
// out, while the call still runs, and progress on stderr as it comes; a
// signal then ends the call, and the notifications/cancelled it prints
// gives the server the reason in words.
func TestCallStreamsAndSaysWhy(t *testing.T) {
	dir := t.TempDir()
	server := hostile.Build(t, dir, "./testdata/servers/hostile", "hostile")
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"h": map[string]any{"command": server, "args": []string{"-mode", "slow-call", "-delay", "10m"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "slow.json")
	if err := os.WriteFile(path, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(build(t, ".."), "call", path, "slow", "--timeout", "60s")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines, progress := make(chan string, 100), make(chan string, 100)
	go scanLines(stdout, lines)
	go scanLines(stderr, progress)

	until := func(what string, from <-chan string, ok func(string) bool) []string {
		t.Helper()
		var seen []string
		deadline := time.After(60 * time.Second)
		for {
			select {
			case l, open := <-from:
				if !open {
					t.Fatalf("no %s before the output ended:\n%s", what, strings.Join(seen, "\n"))
				}
				if seen = append(seen, l); ok(l) {
					return seen
				}
			case <-deadline:
				t.Fatalf("no %s within 60s:\n%s", what, strings.Join(seen, "\n"))
			}
		}
	}
	until("request frame", lines, func(l string) bool { return strings.HasPrefix(l, "→ h ") && strings.Contains(l, `"tools/call"`) })
	until("progress", progress, func(l string) bool { return strings.HasPrefix(l, "mcplens call: progress 2/") })
	drained := make(chan struct{})
	go func() { // stderr is read on: a full pipe would hold mcplens up
		for range progress {
		}
		close(drained)
	}()
	// The call runs for ten minutes: whatever was printed was printed as it
	// crossed. Now interrupt it.
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	seen := until("notifications/cancelled", lines, func(l string) bool { return strings.Contains(l, `"notifications/cancelled"`) })
	if last := seen[len(seen)-1]; !strings.Contains(last, `"reason":"mcplens call was interrupted (interrupt)"`) {
		t.Errorf("cancellation %s, want the reason in words", last)
	}
	for range lines { // to the end
	}
	<-drained
	if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != exitFound {
		t.Errorf("exit %v, want %d", err, exitFound)
	}
}

func scanLines(r interface{ Read([]byte) (int, error) }, out chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		out <- sc.Text()
	}
	close(out)
}
