package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
)

// removed are the methods 2026-07-28 removed.
var removed = []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}

// statelessFault commits the mode's fault on a stateless revision's request
// (its MCP-Protocol-Version 2026-07-28 or later) on its way to mcp-go, or on
// its answer's way back. It returns the writer and request to serve, false
// when it answered the request itself.
func statelessFault(mode string, w http.ResponseWriter, r *http.Request, body []byte) (http.ResponseWriter, *http.Request, bool) {
	if r.Header.Get("Mcp-Protocol-Version") < "2026-07-28" {
		return w, r, true
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	switch {
	case mode == "meta-optional":
		body = withMeta(body, r.Header.Get("Mcp-Protocol-Version"))
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	case mode == "ping-served" && m.Method == "ping" && len(m.ID) > 0:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`))
		return w, r, false
	case mode == "removed-200" && slices.Contains(removed, m.Method),
		mode == "unknown-200" && !slices.Contains(removed, m.Method):
		return &notFoundOK{ResponseWriter: w}, r, true
	}
	return w, r, true
}

// withMeta fills in the required fields of the request's _meta that it
// lacks, as a server that does not check them behaves.
func withMeta(body []byte, version string) []byte {
	var req map[string]any
	if json.Unmarshal(body, &req) != nil {
		return body
	}
	params, _ := req["params"].(map[string]any)
	if params == nil {
		params = map[string]any{}
	}
	meta, _ := params["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	if meta["io.modelcontextprotocol/protocolVersion"] == nil {
		meta["io.modelcontextprotocol/protocolVersion"] = version
	}
	if meta["io.modelcontextprotocol/clientCapabilities"] == nil {
		meta["io.modelcontextprotocol/clientCapabilities"] = map[string]any{}
	}
	params["_meta"], req["params"] = meta, params
	out, err := json.Marshal(req)
	if err != nil {
		return body
	}
	return out
}

// notFoundOK answers 200 where mcp-go answers 404 (method not found).
type notFoundOK struct{ http.ResponseWriter }

func (w *notFoundOK) WriteHeader(code int) {
	if code == http.StatusNotFound {
		code = http.StatusOK
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *notFoundOK) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *notFoundOK) Unwrap() http.ResponseWriter { return w.ResponseWriter }
