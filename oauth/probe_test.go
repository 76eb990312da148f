package oauth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/oauth"
)

// A server that answers login's initialize with a body that never ends is
// read no further than the probe's bound: the probe goes on to tools/list,
// whose refusal it follows, and closes the session it opened.
func TestLoginProbeEndlessInitialize(t *testing.T) {
	var toolsList, deleted atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method == http.MethodDelete && r.Header.Get("Mcp-Session-Id") == "s-1":
			deleted.Store(true)
		case strings.Contains(string(body), `"initialize"`):
			w.Header().Set("Mcp-Session-Id", "s-1")
			w.Header().Set("Content-Type", "application/json")
			chunk := []byte(strings.Repeat("x", 32<<10))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case strings.Contains(string(body), `"tools/list"`) && r.Header.Get("Mcp-Session-Id") == "s-1":
			toolsList.Store(true)
			w.Header().Set("WWW-Authenticate", `Bearer scope="mcp:basic"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s := config.ServerSpec{Label: "endless", Transport: config.TransportHTTP, URL: srv.URL + "/mcp"}
	asked, err := oauth.LoginIfAsked(ctx, s, oauth.Options{Store: newStore(t), Show: func(string) {}})
	if !asked || !toolsList.Load() || !deleted.Load() {
		t.Fatalf("LoginIfAsked = %v, %v; tools/list asked %v, session closed %v: want the tools/list refusal followed", asked, err, toolsList.Load(), deleted.Load())
	}
	if err == nil || ctx.Err() != nil {
		t.Fatalf("login against a server with no authorization server = %v (context %v); want a failed step, before the deadline", err, ctx.Err())
	}
}
