package oauth

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mcplens/mcplens/loader/config"
)

// The requests challenge sends a server with no token, in order: the
// 2026-07-28 probe, server/discover (a server of an earlier revision
// answers it with an error, or refuses it as it would any request it
// guards); then initialize; and, a server letting initialize through, the
// first request that reads anything, tools/list.
const (
	probeDiscover    = `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"mcplens","version":"login"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	probeInitialize  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcplens","version":"login"}}}`
	probeInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	probeToolsList   = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
)

// challenge asks the server, with no token, server/discover, then to
// initialize and to list its tools, and returns the first request it
// refused (401, or 403) with its answer, whose WWW-Authenticate challenge the flow follows; asked is
// false when it refused neither, and the answer is then a 401 with no
// challenge: the authorization server is discovered from the well-known
// paths. The server is the one the config names, wherever it is: these
// requests alone are not held to its reach; each is bounded by timeout and
// what is read of its answer by maxSaid.
func challenge(ctx context.Context, spec config.ServerSpec, timeout time.Duration) (req *http.Request, resp *http.Response, asked bool, err error) {
	session := ""
	for i, body := range []string{probeDiscover, probeInitialize, probeInitialized, probeToolsList} {
		req, resp, err = probe(ctx, spec, body, session, timeout)
		if err != nil {
			return nil, nil, false, err
		}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			if session != "" {
				end(ctx, spec, session, timeout)
			}
			return req, resp, true, nil
		}
		if i == 1 {
			if resp.StatusCode/100 != 2 {
				break // not a server that initializes over streamable HTTP: nothing more to learn
			}
			session = resp.Header.Get("Mcp-Session-Id")
		}
	}
	if session != "" {
		end(ctx, spec, session, timeout)
	}
	return req, &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{}, Body: http.NoBody}, false, nil
}

// end closes the session the probe opened on the server, as a client
// done with one does (a DELETE with its ID); the server's answer changes
// nothing.
func end(ctx context.Context, spec config.ServerSpec, session string, timeout time.Duration) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodDelete, spec.URL, nil)
	if err != nil {
		return
	}
	for _, h := range spec.Headers {
		req.Header.Set(h.Name, h.Value)
	}
	req.Header.Set("Mcp-Session-Id", session)
	if resp, err := http.DefaultTransport.RoundTrip(req); err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxSaid))
		resp.Body.Close()
	}
}

// probe sends one JSON-RPC message of challenge and reads its answer,
// bounded, before the request's own deadline ends.
func probe(ctx context.Context, spec config.ServerSpec, body, session string, timeout time.Duration) (*http.Request, *http.Response, error) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodPost, spec.URL, strings.NewReader(body))
	if err != nil {
		return nil, nil, fmt.Errorf("server %q: %w", spec.Label, err)
	}
	for _, h := range spec.Headers {
		req.Header.Set(h.Name, h.Value)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body == probeDiscover {
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, nil, &StepError{Step: StepDiscovery, URL: spec.URL, Err: timedOut(err, timeout)}
	}
	said, _ := io.ReadAll(io.LimitReader(resp.Body, maxSaid)) // read now: the context ends on return
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(said))
	return req.WithContext(ctx), resp, nil
}
