package loader_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/internal/testkit/taskserver"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// A taskPeer is the task server over one transport; srv is nil over stdio,
// where what the server saw is read from the frames alone.
type taskPeer struct {
	name string
	cfg  *config.Config
	srv  *taskserver.Server
}

func taskPeers(t *testing.T) []taskPeer {
	srv := taskserver.New()
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return []taskPeer{
		{"http", remoteConfig("tasks", config.TransportHTTP, ts.URL+"/mcp"), srv},
		{"stdio", &config.Config{Servers: []config.ServerSpec{taskserver.Spec(t, "tasks")}}, nil},
	}
}

// modernHandshake is mcplens's at 2026-07-28 with caps.
func modernHandshake(caps model.Capabilities) model.Handshake {
	h := eraHandshake(model.Revision20260728)
	h.Capabilities = caps
	return h
}

func textOf(t *testing.T, result json.RawMessage) string {
	t.Helper()
	var r struct {
		Content  []struct{ Text string } `json:"content"`
		Messages []struct {
			Content struct{ Text string } `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		t.Fatalf("result %s: %v", result, err)
	}
	var texts []string
	for _, c := range r.Content {
		texts = append(texts, c.Text)
	}
	for _, m := range r.Messages {
		texts = append(texts, m.Content.Text)
	}
	return strings.Join(texts, "\n")
}

// TestRounds: a tools/call and a prompts/get answered input_required are
// answered by --elicit's and --root's answers and sent again with the
// requestState exactly as it came, over HTTP and stdio; the frames hold
// both rounds.
func TestRounds(t *testing.T) {
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			root := t.TempDir()
			s := open(t, peer.cfg, loader.Options{
				Handshake: modernHandshake(model.Capabilities{Roots: &model.RootsCapability{}, Elicitation: &model.ElicitationCapability{Form: true}}),
				Answers:   loader.Answers{Elicit: loader.ElicitAcceptDefaults, Roots: []string{root}},
			})
			awaitReady(t, s, peer.cfg, -1)
			res, err := s.Call(context.Background(), "tasks", "ask", nil)
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if got, want := textOf(t, res.Result), "hello accept map[name:lens]; 1 roots"; got != want || res.Rounds != 2 {
				t.Errorf("ask = %q in %d rounds, want %q in 2", got, res.Rounds, want)
			}
			state, _ := json.Marshal(taskserver.State)
			var echoed int
			for _, f := range s.FrameLog("tasks").Frames() {
				if m, _ := method(t, f.Bytes); m == "tools/call" && strings.Contains(string(f.Bytes), `"requestState":`+string(state)) {
					echoed++
				}
			}
			if echoed != 1 {
				t.Errorf("%d tools/call frames carry the requestState %s, want the second round's", echoed, state)
			}
			pr, err := s.GetPrompt(context.Background(), "tasks", "ask-prompt", nil)
			if err != nil || len(pr.Messages) != 1 || !strings.Contains(textOf(t, pr.Result), "hello accept map[name:lens]; 1 roots") {
				t.Errorf("ask-prompt = %s, %v; want the hello of the second round", pr.Result, err)
			}
			if peer.srv != nil && len(peer.srv.BadStates()) > 0 {
				t.Errorf("the server got back the requestStates %q", peer.srv.BadStates())
			}
		})
	}
}

// TestRoundsBounded: a server asking in every round is asked no more than
// loader.MaxRounds times; a request for a capability not declared is
// answered as the method it is (not found), which ends the call.
func TestRoundsBounded(t *testing.T) {
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{
				Handshake: modernHandshake(model.Capabilities{Roots: &model.RootsCapability{}}),
				Answers:   loader.Answers{Roots: []string{t.TempDir()}},
			})
			awaitReady(t, s, peer.cfg, -1)
			res, err := s.Call(context.Background(), "tasks", "endless", nil)
			if err == nil || !strings.Contains(err.Error(), "exceeded maximum retries") {
				t.Errorf("endless: err = %v, want the bound", err)
			}
			if res.Rounds != loader.MaxRounds {
				t.Errorf("endless was sent %d times, want %d", res.Rounds, loader.MaxRounds)
			}
			if _, err := s.Call(context.Background(), "tasks", "ask", nil); err == nil || !strings.Contains(err.Error(), "does not declare") {
				t.Errorf("ask without elicitation declared: err = %v, want the elicitation refused", err)
			}
		})
	}
}

// TestRoundsCrowd: a tools/call round asking more than
// loader.MaxInputRequests questions at once is refused whole, as a
// prompts/get or task round is: none is answered, the call is not sent
// again.
func TestRoundsCrowd(t *testing.T) {
	for _, peer := range taskPeers(t) {
		t.Run(peer.name, func(t *testing.T) {
			s := open(t, peer.cfg, loader.Options{
				Handshake: modernHandshake(model.Capabilities{Roots: &model.RootsCapability{}}),
				Answers:   loader.Answers{Roots: []string{t.TempDir()}},
			})
			awaitReady(t, s, peer.cfg, -1)
			res, err := s.Call(context.Background(), "tasks", "crowd", nil)
			if err == nil || !strings.Contains(err.Error(), "17 input requests in one round, over mcplens's bound of 16") || strings.Contains(err.Error(), "transport error") {
				t.Errorf("crowd: err = %v, want the round refused", err)
			}
			if res.Rounds != 1 {
				t.Errorf("crowd was sent %d times, want once", res.Rounds)
			}
			for _, f := range s.FrameLog("tasks").Frames() {
				if strings.Contains(string(f.Bytes), `"roots":[`) {
					t.Errorf("a roots request was answered: %s", f.Bytes)
				}
			}
		})
	}
}
