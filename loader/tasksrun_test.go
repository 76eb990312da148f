package loader_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// statuses collects the statuses a task reports.
type statuses struct {
	mu   sync.Mutex
	seen []string
	// onWorking, when set, runs once at the first "working".
	onWorking func()
	once      sync.Once
}

func (s *statuses) report(r mcpsession.TaskRun) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Status)
	s.mu.Unlock()
	if r.Status == "working" && s.onWorking != nil {
		s.once.Do(s.onWorking)
	}
}

// TestTasksAugmented: a 2025-11-25 task asked for runs to its result
// (tasks/get polled, tasks/result read), and one cancelled by its context
// is cancelled with tasks/cancel, over HTTP and stdio.
func TestTasksAugmented(t *testing.T) {
	h := eraHandshake(model.Revision20251125)
	h.Capabilities.Tasks = &model.TasksCapability{List: true, Cancel: true}
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{Handshake: h})
			awaitReady(t, s, peer.cfg, -1)
			var st statuses
			ctx := loader.WithTaskStatus(loader.AsTask(context.Background()), st.report)
			res, err := s.Call(ctx, "tasks", "slow", []byte(`{"ms":300}`))
			if err != nil {
				t.Fatalf("slow: %v", err)
			}
			if got := textOf(t, res.Result); got != "slow done after 300ms" || res.Task == nil || res.Task.Generation != loader.TasksAugmented {
				t.Fatalf("slow = %q, task %+v; want its result from a 2025-11-25 task", got, res.Task)
			}
			if !slices.Contains(st.seen, "working") || !hasFrame(t, s, "tasks", "tasks/result") {
				t.Errorf("statuses %q, tasks/result sent %v; want working reported and the result read", st.seen, hasFrame(t, s, "tasks", "tasks/result"))
			}

			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			st = statuses{onWorking: func() { cancel(errors.New("the test cancels")) }}
			ctx = loader.WithTaskStatus(loader.AsTask(ctx), st.report)
			res, err = s.Call(ctx, "tasks", "forever", nil)
			if err == nil || !strings.Contains(err.Error(), "was cancelled (tasks/cancel)") || res.Task == nil || !res.Task.Cancelled {
				t.Fatalf("forever: err = %v, task %+v; want it cancelled", err, res.Task)
			}
			if !hasFrame(t, s, "tasks", "tasks/cancel") {
				t.Error("no tasks/cancel crossed the wire")
			}
		})
	}
}

// TestTasksAugmentedModern: a 2025-11-25 task is not asked of a server
// that settled on 2026-07-28, which has no task augmentation: the call
// fails with ErrTaskAtModern and no tools/call is sent.
func TestTasksAugmentedModern(t *testing.T) {
	h := modernHandshake(model.Capabilities{Tasks: &model.TasksCapability{List: true, Cancel: true}})
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{Handshake: h})
			awaitReady(t, s, peer.cfg, -1)
			_, err := s.Call(loader.AsTask(context.Background()), "tasks", "slow", []byte(`{"ms":10}`))
			if !errors.Is(err, loader.ErrTaskAtModern) || hasFrame(t, s, "tasks", "tools/call") {
				t.Fatalf("slow as a task at 2026-07-28: err = %v, tools/call sent %v; want ErrTaskAtModern and nothing sent", err, hasFrame(t, s, "tasks", "tools/call"))
			}
		})
	}
}

// TestTasksExtension: under a 2026-07-28 client declaring the tasks
// extension the server answers with a task; its question (tasks/get's
// inputRequests) is answered with tasks/update, once, and its result is the
// call's; a client without the extension gets the server's refusal; a
// cancelled one is cancelled with tasks/cancel.
func TestTasksExtension(t *testing.T) {
	caps := model.Capabilities{Elicitation: &model.ElicitationCapability{Form: true}, Tasks: &model.TasksCapability{Extension: true}}
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{Handshake: modernHandshake(caps), Answers: loader.Answers{Elicit: loader.ElicitAcceptDefaults}})
			awaitReady(t, s, peer.cfg, -1)
			var st statuses
			res, err := s.Call(loader.WithTaskStatus(context.Background(), st.report), "tasks", "ext-task", nil)
			if err != nil {
				t.Fatalf("ext-task: %v", err)
			}
			if got := textOf(t, res.Result); got != "researched tasks" || res.Task == nil || res.Task.Generation != loader.TasksExtension || res.Task.Inputs != 1 {
				t.Fatalf("ext-task = %q, task %+v; want the topic asked once and researched", got, res.Task)
			}
			if !slices.Contains(st.seen, "input_required") || !hasFrame(t, s, "tasks", "tasks/update") {
				t.Errorf("statuses %q; want input_required reported and tasks/update sent", st.seen)
			}

			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			st = statuses{onWorking: func() { cancel(errors.New("the test cancels")) }}
			res, err = s.Call(loader.WithTaskStatus(ctx, st.report), "tasks", "ext-task", []byte(`{"forever":true}`))
			if err == nil || res.Task == nil || !res.Task.Cancelled {
				t.Fatalf("ext-task forever: err = %v, task %+v; want it cancelled", err, res.Task)
			}
			if peer.srv != nil && !slices.Contains(peer.srv.Cancelled(), res.Task.ID) {
				t.Errorf("the server saw tasks/cancel for %q, want %s", peer.srv.Cancelled(), res.Task.ID)
			}
		})
	}
	for _, peer := range taskPeers(t) {
		t.Run(peer.name+"/undeclared", func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{Handshake: modernHandshake(model.Capabilities{})})
			awaitReady(t, s, peer.cfg, -1)
			if _, err := s.Call(context.Background(), "tasks", "ext-task", nil); err == nil || !strings.Contains(strings.ToLower(err.Error()), "missing required client capability") {
				t.Errorf("ext-task without the extension: err = %v, want the server's refusal", err)
			}
			// A server that answers with a task all the same is refused.
			_, err := s.Call(context.Background(), "tasks", "ext-task", []byte(`{"hostile":"unasked"}`))
			if err == nil || !strings.Contains(err.Error(), "does not declare the tasks extension") || hasFrame(t, s, "tasks", "tasks/get") {
				t.Errorf("an unasked task: err = %v, want it refused and never polled", err)
			}
		})
	}
}

// TestTasksHostile: a task id over loader.MaxTaskID bytes is refused at
// once, and a round of more than loader.MaxInputRequests questions is not
// answered; either ends the call with why.
func TestTasksHostile(t *testing.T) {
	caps := model.Capabilities{Roots: &model.RootsCapability{}, Tasks: &model.TasksCapability{Extension: true}}
	peer := taskPeers(t)[0]
	s := open(t, peer.cfg, loader.Options{Handshake: modernHandshake(caps), Answers: loader.Answers{Roots: []string{t.TempDir()}}})
	awaitReady(t, s, peer.cfg, -1)
	for _, tt := range []struct{ hostile, want string }{
		{"long-id", "over mcplens's bound of 1024"},
		{"many-inputs", "17 input requests in one round, over mcplens's bound of 16"},
	} {
		_, err := s.Call(context.Background(), "tasks", "ext-task", []byte(`{"hostile":"`+tt.hostile+`"}`))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.hostile, err, tt.want)
		}
	}
	if hasFrame(t, s, "tasks", "tasks/update") {
		t.Error("a round over the bound was answered")
	}
}

// TestEverythingResearchTask: server-everything's simulate-research-query
// runs as a task under a client that runs tasks, and its clarifying
// question (an elicitation carried by tasks/result) is answered with
// --elicit's answer.
func TestEverythingResearchTask(t *testing.T) {
	s, _ := openEverything(t, loader.Options{
		Handshake: mustClient(t, "vscode").Handshake,
		Answers:   loader.Answers{Elicit: loader.ElicitAcceptDefaults},
	})
	res, err := s.Call(loader.AsTask(context.Background()), "everything", "simulate-research-query", []byte(`{"topic":"python","ambiguous":true}`))
	if err != nil {
		t.Fatalf("simulate-research-query: %v", err)
	}
	if got := textOf(t, res.Result); !strings.Contains(got, "# Research Report: python (User accepted") || res.Task == nil || res.Task.Status != "completed" {
		t.Errorf("simulate-research-query = %.200q, task %+v; want the report after the question was accepted", got, res.Task)
	}
	if !hasFrame(t, s, "everything", "elicitation/create") {
		t.Error("the clarifying question never came")
	}
}

// TestTaskNoteFlood: a server that answers each tasks/get after a flood
// of notes of the task's status is polled no more often than
// loader.MinPoll allows, however early the notes wake the poll.
func TestTaskNoteFlood(t *testing.T) {
	caps := model.Capabilities{Tasks: &model.TasksCapability{Extension: true}}
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{Handshake: modernHandshake(caps)})
			awaitReady(t, s, peer.cfg, -1)
			ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
			defer cancel()
			start := time.Now()
			res, err := s.Call(ctx, "tasks", "ext-task", []byte(`{"hostile":"flood"}`))
			elapsed := time.Since(start)
			if err == nil || res.Task == nil {
				t.Fatalf("the flooding task ended: %v, %+v", err, res.Task)
			}
			if most := int(elapsed/loader.MinPoll) + 1; res.Task.Polls > most {
				t.Errorf("tasks/get was sent %d times in %s, more than once per %s (%d)", res.Task.Polls, elapsed, loader.MinPoll, most)
			}
		})
	}
}

// TestTaskLongStatus: a task whose statusMessage is 1 MiB is reported
// with its message cut to loader.MaxStatusMessage, so that the tasks pane
// (100 tasks) and call's progress hold kilobytes of it, not megabytes.
func TestTaskLongStatus(t *testing.T) {
	caps := model.Capabilities{Tasks: &model.TasksCapability{Extension: true}}
	peer := taskPeers(t)[0]
	s := open(t, peer.cfg, loader.Options{Handshake: modernHandshake(caps)})
	awaitReady(t, s, peer.cfg, -1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var longest, reports int
	ctx = loader.WithTaskStatus(ctx, func(r mcpsession.TaskRun) {
		longest, reports = max(longest, len(r.Message)), reports+1
		if reports == 3 {
			cancel() // the status of the creation and of two polls
		}
	})
	res, err := s.Call(ctx, "tasks", "ext-task", []byte(`{"hostile":"long-status"}`))
	if err == nil || reports < 3 {
		t.Fatalf("the task was not followed: %v, %d statuses", err, reports)
	}
	if most := loader.MaxStatusMessage + len("…"); longest > most || len(res.Task.Message) > most {
		t.Errorf("a status message of %d bytes was reported (%d kept), want at most %d", longest, len(res.Task.Message), most)
	}
}
