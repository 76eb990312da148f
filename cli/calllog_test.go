package cli

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestCallPrintsLogs: the log messages a server sends during the call
// (notifications/message) are printed with the frames, and no other
// notification is.
func TestCallPrintsLogs(t *testing.T) {
	srv := server.NewMCPServer("logger", "1", server.WithToolCapabilities(true), server.WithLogging())
	srv.AddTool(mcp.NewTool("work"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s := server.ServerFromContext(ctx)
		_ = s.SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": "warning", "logger": "job", "data": "half done"})
		_ = s.SendNotificationToClient(ctx, "notifications/other", map[string]any{"x": 1})
		// A request after them, answered before the result: the server's
		// messages go out in order, so the notifications have reached the
		// client by the time it answers (the config is Cursor's, whose
		// profile declares roots), and the call prints them whatever the
		// machine's load.
		if _, err := s.RequestRoots(ctx, mcp.ListRootsRequest{}); err != nil {
			return nil, err
		}
		return mcp.NewToolResultText("done"), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	defer ts.Close()

	cfg := writeConfig(t, fmt.Sprintf(`"logger": {"url": %q}`, ts.URL+"/mcp"))
	code, out, errb := runCalled(t, "", cfg, "work", "--config-format", "cursor", "--timeout", "20s")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	logged := false
	for _, line := range strings.Split(out, "\n") {
		logged = logged || strings.HasPrefix(line, "← logger ") && strings.Contains(line, `"notifications/message"`) && strings.Contains(line, "half done")
	}
	if !logged {
		t.Errorf("no log message among the frames:\n%s", out)
	}
	if strings.Contains(out, "notifications/other") {
		t.Errorf("call printed a notification other than a log message:\n%s", out)
	}
}

// TestCallPrintsLateLogs: a log message the server sends after the result
// is printed after the response: call waits for the server's stream to end
// (here the server exits once it logged), or for it to be quiet for
// logQuiet.
func TestCallPrintsLateLogs(t *testing.T) {
	bin := build(t, "../testdata/servers/latelog")
	for _, flags := range [][]string{{"-exit"}} {
		args := append([]string{"finish", "--server", "latelog", "--", bin}, flags...)
		code, out, errb := runCalled(t, "", args...)
		if code != exitOK {
			t.Fatalf("call %v: exit %d\n%s%s", args, code, out, errb)
		}
		response := strings.Index(out, `← latelog {"jsonrpc":"2.0","id":`)
		logged := strings.Index(out, `← latelog {"jsonrpc":"2.0","method":"notifications/message"`)
		if response < 0 || logged < response || !strings.Contains(out, "finished after the result") {
			t.Errorf("call %v: the log message after the result is not printed after the response:\n%s", args, out)
		}
	}
}
