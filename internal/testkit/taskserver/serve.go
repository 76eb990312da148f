package taskserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcplens/mcplens/internal/testkit/hostile"
	"github.com/mcplens/mcplens/loader/config"
)

// Handler is the server over streamable HTTP: the extension's requests
// answered here, the rest by mcp-go.
func (s *Server) Handler() http.Handler {
	next := server.NewStreamableHTTPServer(s.mcp)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if lines, err := s.intercept(body); err == nil {
				if len(lines) == 1 {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write(lines[0])
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				for _, line := range lines {
					_, _ = fmt.Fprintf(w, "event: message\ndata: %s\n\n", line)
				}
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

// ServeStdio is the server over stdio: each line the extension's is
// answered here, the others go to mcp-go, whose writes share out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	lw := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if lines, err := s.intercept(line); err == nil {
				_, _ = lw.Write(append(bytes.Join(lines, []byte("\n")), '\n'))
				continue
			}
			if _, err := pw.Write(append(bytes.Clone(line), '\n')); err != nil {
				return
			}
		}
		pw.Close()
	}()
	return server.NewStdioServer(s.mcp).Listen(ctx, pr, lw)
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

var build struct {
	once      sync.Once
	dir, path string
}

// Spec is the stdio server (testdata/servers/tasks), built once per test
// binary, as a server spec labelled label; Cleanup removes the build.
func Spec(t testing.TB, label string) config.ServerSpec {
	t.Helper()
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcplens-tasks-")
		if err != nil {
			t.Fatal(err)
		}
		build.dir = dir
		build.path = hostile.Build(t, dir, "./testdata/servers/tasks", "tasks")
	})
	if build.path == "" {
		t.Fatal("the task server was not built")
	}
	return config.ServerSpec{Label: label, Command: build.path}
}

// Cleanup removes the build of Spec, if any; TestMain calls it.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}
