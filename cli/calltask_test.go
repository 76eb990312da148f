//go:build linux

package cli

import (
	"bufio"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/internal/testkit/taskserver"
)

// TestCallTask: `call` runs a tool that must run as a task as one under a
// client that runs tasks, or with --task, waits for its result and says
// its status on stderr; under a client that runs none it is called as that
// client calls it, refused by the server, and stderr says why. On a
// server that settled on 2026-07-28, which has no task augmentation,
// --task declares the tasks extension instead: the server's own task runs
// (its question answered), and a tool that asks for augmentation is
// called as any other, which that server refuses.
func TestCallTask(t *testing.T) {
	server := build(t, "../testdata/servers/tasks")
	slow := []string{"slow", "--arg", "ms=200"}
	for _, tt := range []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"--task", append([]string{"--task", "--protocol", "2025-11-25"}, slow...), 0, "slow done after 200ms", "(2025-11-25) working"},
		{"--task at 2026-07-28", append([]string{"--task"}, slow...), 1, `"io.modelcontextprotocol/tasks":{}`, "requires task augmentation"},
		{"extension", []string{"ext-task", "--task", "--client", "vscode", "--protocol", "2026-07-28", "--elicit", "accept-defaults"}, 0,
			"researched tasks", "(2026-07-28) completed"},
		{"vscode", append([]string{"--client", "vscode"}, slow...), 0, "task ", "(2025-11-25) working"},
		{"no tasks", slow, 1, "", "must run as a task (execution.taskSupport \"required\"), and the client profile runs no tasks"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"call"}, tt.args...), "--", server)
			code, out, errs, _ := runLens(t, build(t, ".."), args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errs, tt.err) {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s\nwant %q on stdout, %q on stderr", code, tt.code, out, errs, tt.out, tt.err)
			}
			if tt.code == 0 && !strings.Contains(out, `"method":"tasks/result"`) && !strings.Contains(out, `"method":"tasks/get"`) {
				t.Errorf("stdout lacks the task's exchanges:\n%s", out)
			}
		})
	}
}

// lockedLines is a process's stderr, read line by line as it comes, to
// its end: a pipe of its own rather than cmd.StderrPipe, which Wait closes
// with lines still unread.
type lockedLines struct {
	mu   sync.Mutex
	text strings.Builder
	done chan struct{} // closed at the end of the stream
}

// read gives cmd a stderr to read; call before cmd.Start, and started
// after it (the parent's copy of the write end closed).
func (l *lockedLines) read(t *testing.T, cmd *exec.Cmd) (started func()) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = w
	l.done = make(chan struct{})
	go func() {
		defer close(l.done)
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.mu.Lock()
			l.text.WriteString(sc.Text() + "\n")
			l.mu.Unlock()
		}
	}()
	return func() { w.Close() }
}

// ended waits for the end of the stream, at most 20s.
func (l *lockedLines) ended(t *testing.T) {
	t.Helper()
	select {
	case <-l.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("stderr still open 20s after the process ended:\n%s", l.String())
	}
}

func (l *lockedLines) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.text.String() }

// TestCallTaskInterrupt: SIGINT to `call` following a task cancels the
// task (tasks/cancel, seen by the server) and ends the call, exit 1; so
// does --timeout.
func TestCallTaskInterrupt(t *testing.T) {
	srv := taskserver.New()
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	for _, how := range []string{"SIGINT", "--timeout"} {
		t.Run(how, func(t *testing.T) {
			before := len(srv.Cancelled())
			args := []string{"call", "forever", "--task", "--protocol", "2025-11-25", "--url", ts.URL + "/mcp"}
			if how == "--timeout" {
				args = append(args, "--timeout", "3s")
			}
			cmd := exec.Command(build(t, ".."), args...)
			var stderr lockedLines
			started := stderr.read(t, cmd)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			started()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					_ = cmd.Process.Kill()
				}
			})
			if how == "SIGINT" {
				for deadline := time.Now().Add(30 * time.Second); !strings.Contains(stderr.String(), "(2025-11-25) working"); {
					if time.Now().After(deadline) {
						t.Fatalf("the task never reported working; stderr:\n%s", stderr.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(60 * time.Second):
				t.Fatalf("mcplens call still runs 60s on; stderr:\n%s", stderr.String())
			}
			stderr.ended(t)
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "was cancelled (tasks/cancel)") {
				t.Errorf("exit %v, want 1 with the task cancelled; stderr:\n%s", err, stderr.String())
			}
			if got := srv.Cancelled(); len(got) != before+1 {
				t.Errorf("the server saw tasks/cancel for %q, want one more than %d", got, before)
			}
		})
	}
}

// TestCallResearchTask: server-everything's simulate-research-query runs
// as a task from `call` under a client that runs tasks, and its clarifying
// question is answered with --elicit.
func TestCallResearchTask(t *testing.T) {
	entry := everything.Entry(t)
	code, out, errs, _ := runLens(t, build(t, ".."), "call", "simulate-research-query", "--client", "vscode", "--elicit", "accept-defaults",
		"--arg", "topic=python", "--arg", "ambiguous=true", "--", "node", entry, "stdio")
	if code != 0 || !strings.Contains(out, "Research Report: python (User accepted") || !strings.Contains(out, `"method":"elicitation/create"`) ||
		!strings.Contains(errs, "input_required") {
		t.Errorf("exit %d; stdout:\n%s\nstderr:\n%s\nwant the report after the question was answered", code, out, errs)
	}
}
