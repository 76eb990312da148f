package relay_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/server"
)

// TestProxySSEAbsoluteEndpoint drives an SSE server that names its message
// endpoint by an absolute URL (its own origin) through the proxy: the
// client is given the proxy's origin instead, so its messages pass (and
// are recorded), while the recording keeps the endpoint as sent.
func TestProxySSEAbsoluteEndpoint(t *testing.T) {
	upstream := httptest.NewUnstartedServer(nil)
	upstream.Config.Handler = server.NewSSEServer(echoServer(), server.WithBaseURL("http://"+upstream.Listener.Addr().String()))
	upstream.Start()
	defer upstream.Close()
	proxy, c, sink := proxyTo(t, upstream.URL)
	cl, err := client.NewSSEMCPClient(proxy.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cl)
	cl.Close()
	proxy.Close()
	c.Close()
	var endpoint string
	calls := 0
	for _, r := range sink.records(t) {
		if r.SSE == "endpoint" {
			endpoint = r.body()
		}
		if r.Dir == "c2s" && strings.Contains(r.body(), `"tools/call"`) {
			calls++
		}
	}
	if !strings.HasPrefix(endpoint, upstream.URL+"/message") {
		t.Errorf("recorded endpoint %q, want the upstream's absolute %s/message...", endpoint, upstream.URL)
	}
	if calls != 1 {
		t.Errorf("the proxy saw %d tools/call requests, want 1 (a client sent around the proxy sends them elsewhere):\n%s", calls, lines(sink))
	}
}
