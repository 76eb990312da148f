package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCalled runs `mcplens call ARGS...` in process, on the demo.
func runCalled(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runCall(args, nil, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// frame returns the printed frame that starts with prefix ("→ alpha "),
// parsed.
func frame(t *testing.T, out, prefix string) map[string]any {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			var msg map[string]any
			if err := json.Unmarshal([]byte(rest), &msg); err != nil {
				t.Fatalf("frame %q is not JSON: %v", rest, err)
			}
			return msg
		}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, out)
	return nil
}

// received returns the text the demo server answered with: what it says
// it received.
func received(t *testing.T, out string) string {
	t.Helper()
	_, result, ok := strings.Cut(out, "):\n")
	if !ok {
		t.Fatalf("no result in:\n%s", out)
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(result), &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("result %q: %v", result, err)
	}
	return r.Content[0].Text
}

func TestCallRegisteredName(t *testing.T) {
	code, out, errb := runCalled(t, "", "mcp__beta__request", "--policy", "lionagi", "--args", `{"verb":"get"}`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	req := frame(t, out, "→ beta ")
	params, _ := req["params"].(map[string]any)
	if req["method"] != "tools/call" || params["name"] != "request" {
		t.Errorf("request frame = %v, want tools/call carrying the wire name request", req)
	}
	if args, _ := params["arguments"].(map[string]any); args["verb"] != "get" {
		t.Errorf("request frame arguments = %v, want verb get", params["arguments"])
	}
	if resp := frame(t, out, "← beta "); resp["id"] != req["id"] {
		t.Errorf("response id %v, request id %v", resp["id"], req["id"])
	}
	if got, want := received(t, out), `beta received tool "request" with arguments {"verb":"get"}`; got != want {
		t.Errorf("server says %q, want %q", got, want)
	}
	if !strings.HasPrefix(out, "call mcp__beta__request (registered name under lionagi) → server beta, wire name request\n") {
		t.Errorf("first line of:\n%s", out)
	}
}

// A wire name one server advertises resolves to that server's route.
func TestCallWireName(t *testing.T) {
	dir := t.TempDir()
	args := filepath.Join(dir, "args.json")
	if err := os.WriteFile(args, []byte(`{"key": "k1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errb := runCalled(t, "", "beta_lookup", "--policy", "lionagi", "--args", "@"+args)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	if params, _ := frame(t, out, "→ beta ")["params"].(map[string]any); params["name"] != "beta_lookup" {
		t.Errorf("request carries name %v, want beta_lookup", params["name"])
	}
	if got := received(t, out); got != `beta received tool "beta_lookup" with arguments {"key":"k1"}` {
		t.Errorf("server says %q", got)
	}
	if !strings.Contains(out, "(wire name, registered as mcp__beta__beta_lookup under lionagi)") {
		t.Errorf("output does not say how the name resolved:\n%s", out)
	}

	code, out, _ = runCalled(t, `{"key":"from stdin"}`, "beta_lookup", "--policy", "lionagi", "--args", "@-")
	if code != exitOK || !strings.Contains(received(t, out), `{"key":"from stdin"}`) {
		t.Errorf("--args @-: exit %d\n%s", code, out)
	}
}

func TestCallRefused(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // in stderr
	}{
		{"ambiguous wire name", []string{"request", "--policy", "lionagi"}, []string{
			`wire name "request" is advertised by 2 servers`,
			"server alpha: registered as mcp__alpha__request",
			"server beta: registered as mcp__beta__request",
		}},
		{"unknown name", []string{"nope", "--policy", "lionagi"}, []string{`no tool "nope" under policy lionagi`}},
		{"wire name without a route", []string{"summarize_the_entire_quarterly_financial_report_with_tables", "--policy", "lionagi"},
			[]string{"has no route under policy lionagi: dropped"}},
		{"arguments not an object", []string{"request", "--args", "[1]"}, []string{"--args is not a JSON object: [1]"}},
		{"arguments not JSON", []string{"request", "--args", "{"}, []string{"--args is not a JSON object"}},
		{"no name", []string{"--policy", "lionagi"}, []string{"usage: mcplens call"}},
		{"unknown policy", []string{"request", "--policy", "nope"}, []string{`unknown policy "nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errb := runCalled(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("call %s: exit %d, want %d", strings.Join(tt.args, " "), code, exitUsage)
			}
			for _, w := range tt.want {
				if !strings.Contains(errb, w) {
					t.Errorf("call %s: stderr lacks %q:\n%s", strings.Join(tt.args, " "), w, errb)
				}
			}
			if strings.Contains(out, "→") {
				t.Errorf("a refused call reached a server:\n%s", out)
			}
		})
	}
}

// Under lionagi-legacy beta's request is dropped, so the bare name goes to
// alpha: the call says so and alpha answers.
func TestCallShadowed(t *testing.T) {
	code, out, errb := runCalled(t, "", "request", "--args", `{"verb":"list"}`)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	if got := received(t, out); !strings.HasPrefix(got, `alpha received tool "request"`) {
		t.Errorf("server says %q, want alpha", got)
	}
}

// The exit status says how the call ended: isError and a broken transport
// are both 1.
func TestCallFailures(t *testing.T) {
	cfg := mutatingConfig(t, t.TempDir(), "1")
	tests := []struct {
		name, args string
		want       int
		stdout     string
		stderr     string
	}{
		{"success", `{}`, exitOK, `"text": "mutating received stable"`, ""},
		{"isError", `{"fail": true}`, exitFound, "result (isError true", ""},
		{"server exits mid-call", `{"exit": true}`, exitFound, "→ m ", `calling "stable" on m`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errb := runCalled(t, "", cfg, "stable", "--args", tt.args)
			if code != tt.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.want, out, errb)
			}
			if !strings.Contains(out, tt.stdout) || !strings.Contains(errb, tt.stderr) {
				t.Errorf("stdout lacks %q or stderr lacks %q:\n%s---\n%s", tt.stdout, tt.stderr, out, errb)
			}
		})
	}
}
