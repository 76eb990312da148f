package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader/demo"
)

// TestCallOneServer: --server starts only the server named, whose tools
// alone make the registry: a wire name two servers advertise resolves, and
// a server that never answers is not waited for.
func TestCallOneServer(t *testing.T) {
	h := hostile.Spec(t, "h", "silent-initialize")
	cfg := writeConfig(t, fmt.Sprintf(`
		"alpha": {"command": %q, "args": [%q, "alpha"]},
		"beta": {"command": %q, "args": [%q, "beta"]},
		"h": {"command": %q, "args": ["-mode", "silent-initialize"]}`,
		os.Args[0], demo.Subcommand, os.Args[0], demo.Subcommand, h.Command))
	code, out, errb := runCalled(t, "", cfg, "request", "--server", "beta", "--arg", "verb=get", "--config-format", "cursor")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	if !strings.Contains(errb, "connecting to 1 server...") {
		t.Errorf("stderr does not say one server was started:\n%s", errb)
	}
	if got, want := received(t, out), `beta received tool "request" with arguments {"verb":"get"}`; got != want {
		t.Errorf("server says %q, want %q", got, want)
	}

	code, _, errb = runCalled(t, "", cfg, "request", "--server", "gamma")
	if code != exitUsage || !strings.Contains(errb, `--server "gamma": no such server`) || !strings.Contains(errb, "alpha, beta, h") {
		t.Errorf("--server gamma: exit %d, stderr %q; want a usage error listing alpha, beta, h", code, errb)
	}
}

// TestCallAdHocURL: --url with --header calls a server without a config:
// the header reaches the server, and its value is masked in what is
// printed; a server that is gone fails with each link of the error once.
func TestCallAdHocURL(t *testing.T) {
	srv := server.NewMCPServer("echo", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("ping-back"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("pong"), nil
	})
	var mu sync.Mutex
	var seen []string
	handler := server.NewStreamableHTTPServer(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("X-Token"))
		mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	defer ts.Close()
	const secret = "TOKENVALUE55"
	code, out, errb := runCalled(t, "", "ping-back", "--url", ts.URL+"/mcp", "--header", "X-Token: "+secret)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	if !strings.HasPrefix(out, "call ping-back (registered name under lionagi-legacy) → server 127-0-0-1, wire name ping-back\n") {
		t.Errorf("first line of:\n%s", out)
	}
	mu.Lock()
	if len(seen) == 0 || seen[0] != secret {
		t.Errorf("the server saw X-Token %q, want %q", seen, secret)
	}
	mu.Unlock()
	if strings.Contains(out+errb, secret) {
		t.Errorf("call printed the header's value:\n%s%s", out, errb)
	}

	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	code, out, errb = runCalled(t, "", "ping-back", "--url", gone.URL+"/mcp", "--timeout", "20s")
	if code != exitUsage || !strings.Contains(errb, "failed to send request") || strings.Contains(errb, "failed to send request: failed to send request") {
		t.Errorf("a server gone: exit %d, want %d, and its error once:\n%s%s", code, exitUsage, out, errb)
	}
	for _, args := range [][]string{
		{"x", "--url", "ftp://host/"},
		{"x", "--header", "A:b"},
		{"x", "--url", ts.URL, "--", "cat"},
		{"x", "--url", ts.URL, "--header", "novalue"},
	} {
		if code, _, errb := runCalled(t, "", args...); code != exitUsage {
			t.Errorf("call %s: exit %d, want %d\n%s", strings.Join(args, " "), code, exitUsage, errb)
		}
	}
}

// TestCallEverything: `call NAME -- CMD ARGS` on the reference server,
// over stdio without a config: --arg values typed by the tool's schema,
// progress on stderr as it is reported, base64 printed once.
func TestCallEverything(t *testing.T) {
	entry := everything.Entry(t)
	cmd := []string{"--timeout", "60s", "--", "node", entry, "stdio"}
	t.Run("typed arguments", func(t *testing.T) {
		code, out, errb := runCalled(t, "", append([]string{"get-sum", "--arg", "a=2", "--arg", "b=3.5"}, cmd...)...)
		if code != exitOK {
			t.Fatalf("exit %d\n%s%s", code, out, errb)
		}
		req := frame(t, out, "→ server-everything ")
		params, _ := req["params"].(map[string]any)
		if args, _ := params["arguments"].(map[string]any); args["a"] != 2.0 || args["b"] != 3.5 {
			t.Errorf("arguments sent %v, want the numbers 2 and 3.5", params["arguments"])
		}
		if !strings.Contains(out, "The sum of 2 and 3.5 is 5.5.") {
			t.Errorf("no sum in:\n%s", out)
		}
	})
	t.Run("progress", func(t *testing.T) {
		code, out, errb := runCalled(t, "", append([]string{"trigger-long-running-operation", "--arg", "duration=1", "--arg", "steps=2"}, cmd...)...)
		if code != exitOK || !strings.Contains(errb, "mcplens call: progress 1/2\n") || !strings.Contains(errb, "mcplens call: progress 2/2\n") {
			t.Errorf("exit %d, want progress 1/2 and 2/2 on stderr:\n%s---\n%s", code, out, errb)
		}
	})
	t.Run("base64 once", func(t *testing.T) {
		code, out, errb := runCalled(t, "", append([]string{"get-tiny-image"}, cmd...)...)
		if code != exitOK {
			t.Fatalf("exit %d\n%s%s", code, out, errb)
		}
		resp := frame(t, out, "← server-everything ")
		var data string
		for _, c := range resp["result"].(map[string]any)["content"].([]any) {
			if c := c.(map[string]any); c["type"] == "image" {
				data = c["data"].(string)
			}
		}
		if len(data) < 100 || strings.Count(out, data[:60]) != 1 {
			t.Errorf("the image's base64 (%d chars) printed %d times, want once:\n%s", len(data), strings.Count(out, data[:min(60, len(data))]), out)
		}
		if !strings.Contains(out, fmt.Sprintf(`"data": "(%d characters of base64, in the response above)"`, len(data))) {
			t.Errorf("the result does not say where the base64 is:\n%s", out)
		}
	})
}

func TestWithArgs(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},"z":{"type":"null"},
		"o":{"type":"object"},"a":{"type":"array"},"s":{"type":"string"},"u":{"type":["integer","string"]}}}`)
	for _, tt := range []struct {
		name, args string
		set        []string
		want, err  string
	}{
		{"typed", `{}`, []string{"i=3", "n=2.5", "b=true", "z=null", `o={"k":1}`, "a=[1,2]", "s=42", "u=x"},
			`{"i":3,"n":2.5,"b":true,"z":null,"o":{"k":1},"a":[1,2],"s":"42","u":"x"}`, ""},
		{"union number", `{}`, []string{"u=7"}, `{"u":7}`, ""},
		{"over --args, in place", `{"s": "old", "keep": [1]}`, []string{"s=new"}, `{"s":"new","keep":[1]}`, ""},
		{"untyped", `{}`, []string{"x=1", "y=hello", "w={}"}, `{"x":1,"y":"hello","w":{}}`, ""},
		{"value with =", `{}`, []string{"s=a=b"}, `{"s":"a=b"}`, ""},
		{"not an integer", `{}`, []string{"i=2.5"}, "", "--arg i=2.5: the schema wants integer"},
		{"not a boolean", `{}`, []string{"b=yes"}, "", "--arg b=yes: the schema wants boolean"},
		{"bad object", `{}`, []string{"o={x}"}, "", "--arg o={x}: the schema wants object, and the value is not JSON: line 1, column 2"},
	} {
		got, err := withArgs(json.RawMessage(tt.args), tt.set, schema)
		switch {
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
			t.Errorf("%s: withArgs(%s, %q) error %v, want %q", tt.name, tt.args, tt.set, err, tt.err)
		case tt.err == "" && (err != nil || string(got) != tt.want):
			t.Errorf("%s: withArgs(%s, %q) = %s, %v; want %s", tt.name, tt.args, tt.set, got, err, tt.want)
		}
	}
}
