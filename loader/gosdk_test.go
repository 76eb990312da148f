package loader_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	// testdata/servers/gosdk is built with this module's go.mod, and go mod
	// tidy does not look into testdata: this import keeps the requirement.
	_ "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// buildServer builds the Go command in testdata/servers/NAME into a
// temporary directory and returns its path.
func buildServer(t *testing.T, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/servers/"+name)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/servers/%s: %v\n%s", name, err, out)
	}
	return bin
}

// TestGoSDKServer lists and calls a server written with the official Go
// SDK, an MCP implementation independent of mcp-go, over stdio.
func TestGoSDKServer(t *testing.T) {
	bin := buildServer(t, "gosdk")
	cfg := &config.Config{Servers: []config.ServerSpec{{Label: "gosdk", Transport: config.TransportStdio, Command: bin}}}
	s := open(t, cfg, loader.Options{})
	_, last := settle(t, s, cfg)
	ev := last["gosdk"]
	if ev.State != mcpsession.Ready {
		t.Fatalf("event = %+v, want Ready", ev)
	}
	if got, want := toolNames(ev.Tools), []string{"fail", "greet", "sum"}; !slices.Equal(got, want) {
		t.Errorf("tools = %q, want %q across its pages", got, want)
	}
	if ev.Protocol != loader.ProtocolVersion || ev.ServerName != "gosdk-test" {
		t.Errorf("protocol %q server %q, want %q from gosdk-test", ev.Protocol, ev.ServerName, loader.ProtocolVersion)
	}
	var cursors int
	for _, f := range s.FrameLog("gosdk").Frames() {
		if f.Dir == mcpsession.Out && bytes.Contains(f.Bytes, []byte(`"cursor"`)) {
			cursors++
		}
	}
	if cursors != 1 {
		t.Errorf("%d tools/list requests carried a cursor, want 1 (two tools per page)", cursors)
	}

	res, err := s.Call(context.Background(), "gosdk", "greet", []byte(`{"name":"mcplens"}`))
	if err != nil || res.IsError || !bytes.Contains(res.Response, []byte("hello, mcplens")) {
		t.Errorf("greet = %s (isError %v), %v; want hello, mcplens", res.Response, res.IsError, err)
	}
	res, err = s.Call(context.Background(), "gosdk", "sum", []byte(`{"a":2,"b":40}`))
	if err != nil || !bytes.Contains(res.Result, []byte(`"structuredContent":{"sum":42}`)) {
		t.Errorf("sum = %s, %v; want structuredContent sum 42", res.Result, err)
	}
	res, err = s.Call(context.Background(), "gosdk", "fail", nil)
	if err != nil || !res.IsError {
		t.Errorf("fail = %s (isError %v), %v; want a tool error", res.Response, res.IsError, err)
	}
	pid := s.Pid("gosdk")
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	assertGone(t, "gosdk", pid)
}
