package loader_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/internal/testkit/everything"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/mcpsession"
)

// everythingEntry is the installed reference server's entry point
// (internal/testkit/everything).
func everythingEntry(t testing.TB) string { return everything.Entry(t) }

// freePort returns a loopback port nothing listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startEverything runs the npm server in mode ("sse" or "streamableHttp") on
// a loopback port and returns the port once it accepts connections. The
// process tree is killed when the test ends.
func startEverything(t *testing.T, entry, mode string) int {
	t.Helper()
	shim, err := filepath.Abs(filepath.Join("..", "testdata", "servers", "everything", "loopback.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	var stderr bytes.Buffer
	cmd := exec.Command("node", "--require", shim, entry, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	tree, err := procguard.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		tree.Kill()
		<-done
		tree.Close()
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 100*time.Millisecond); err == nil {
			c.Close()
			return port
		}
		select {
		case <-done:
			t.Fatalf("server-everything %s exited: %s", mode, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("server-everything %s did not listen on 127.0.0.1:%d within 20s", mode, port)
	return 0
}

// TestServerEverything connects to the reference TypeScript server over
// stdio, streamable HTTP and SSE, lists its tools and calls echo.
func TestServerEverything(t *testing.T) {
	entry := everythingEntry(t)
	for _, mode := range []string{"stdio", "streamableHttp", "sse"} {
		t.Run(mode, func(t *testing.T) {
			spec := config.ServerSpec{Label: "everything"}
			switch mode {
			case "stdio":
				spec.Transport, spec.Command, spec.Args = config.TransportStdio, "node", []string{entry, "stdio"}
			case "streamableHttp":
				port := startEverything(t, entry, mode)
				spec.Transport, spec.URL = config.TransportHTTP, fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
			case "sse":
				port := startEverything(t, entry, mode)
				spec.Transport, spec.URL = config.TransportSSE, fmt.Sprintf("http://127.0.0.1:%d/sse", port)
			}
			cfg := &config.Config{Servers: []config.ServerSpec{spec}}
			start := time.Now()
			s := loader.Open(cfg, loader.Options{})
			defer s.Close()
			_, last := settle(t, s, cfg)
			took := time.Since(start)
			ev := last["everything"]
			if ev.State != mcpsession.Ready {
				t.Fatalf("event = %+v (stderr %s), want Ready", ev, s.Stderr("everything"))
			}
			t.Logf("%s: connected and listed %d tools in %s (protocol %s, %s %s)",
				mode, len(ev.Tools), took, ev.Protocol, ev.ServerName, ev.ServerVersion)
			names := toolNames(ev.Tools)
			for _, want := range []string{"echo", "get-sum"} {
				if !slices.Contains(names, want) {
					t.Errorf("tools %q lack %q", names, want)
				}
			}
			// The reference server speaks the handshake revisions: mcplens's
			// probe is refused, and it falls back, saying so.
			if ev.Protocol != loader.LegacyProtocolVersion {
				t.Errorf("protocol = %q, want %q", ev.Protocol, loader.LegacyProtocolVersion)
			}
			t.Logf("%s: settled %s", mode, ev.Facts.Settled)
			if want := loader.LegacyProtocolVersion + " via initialize: server/discover "; !strings.HasPrefix(ev.Facts.Settled, want) {
				t.Errorf("settled = %q, want it to start %q", ev.Facts.Settled, want)
			}

			res, err := s.Call(context.Background(), "everything", "echo", []byte(`{"message":"from mcplens"}`))
			if err != nil || res.IsError || !bytes.Contains(res.Response, []byte("from mcplens")) {
				t.Errorf("echo = %s (isError %v), %v; want the message back", res.Response, res.IsError, err)
			}
			if !bytes.Contains(res.Request, []byte(`"name":"echo"`)) {
				t.Errorf("echo request %s: want the tapped tools/call", res.Request)
			}

			pid := s.Pid("everything")
			closeStart := time.Now()
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			t.Logf("%s: closed in %s", mode, time.Since(closeStart))
			if mode == "stdio" {
				assertGone(t, "everything", pid)
			}
		})
	}
}
