package loader

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/internal/jsonx"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
)

// The standard headers of an HTTP request are derived here, from the body
// it carries, for every request whatever sent it (mcp-go's client, the
// lister, the server/discover probe, the fallback initialize), so that
// header and body can never disagree:
//
//   - MCP-Protocol-Version: the revision in the body's _meta
//     (io.modelcontextprotocol/protocolVersion) on a stateless request, the
//     revision asked for on initialize, else what mcp-go negotiated.
//   - From 2026-07-28 on, Mcp-Method (the method), Mcp-Name (the name of
//     tools/call and prompts/get, the uri of resources/read) and, on
//     tools/call, an Mcp-Param-{Name} for each x-mcp-header parameter of the
//     tool (model.ParamHeaders) that the arguments give a value. A value
//     that is not plain visible ASCII goes as =?base64?...?= (mcp-go's
//     mcp.EncodeHeaderValue, the specification's rule). Older revisions
//     define none of these, and a client speaking one sends none.

// Header names mcplens sets (canonical forms).
const (
	headerProtocol   = "Mcp-Protocol-Version"
	headerMethod     = "Mcp-Method"
	headerName       = "Mcp-Name"
	headerParamStart = "Mcp-Param-"
)

// stdParams are the members of a request's params the headers mirror.
type stdParams struct {
	Name            *string         `json:"name"`
	URI             *string         `json:"uri"`
	Arguments       json.RawMessage `json:"arguments"`
	ProtocolVersion string          `json:"protocolVersion"`
	Meta            struct {
		ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
	} `json:"_meta"`
}

// stamp sets the standard headers of a POST whose body's envelope is env.
// schemaOf returns the input schema of a tool the server listed, by wire
// name (nil when it listed none such).
func stamp(h http.Header, env envelope, schemaOf func(string) json.RawMessage) {
	method := jsonx.String(env.Method)
	if method == "" {
		return // a response to the server, or not JSON-RPC
	}
	var p stdParams
	if len(env.Params) > 0 && env.Params[0] == '{' {
		_ = json.Unmarshal(env.Params, &p)
	}
	switch {
	case p.Meta.ProtocolVersion != "":
		h.Set(headerProtocol, p.Meta.ProtocolVersion)
	case method == string(mcp.MethodInitialize) && p.ProtocolVersion != "":
		h.Set(headerProtocol, p.ProtocolVersion)
	}
	if !model.MirrorsIntoHeaders(h.Get(headerProtocol)) {
		return
	}
	for k := range h {
		if strings.HasPrefix(k, headerParamStart) || k == headerMethod || k == headerName {
			delete(h, k) // from this body alone, whoever set them before
		}
	}
	h.Set(headerMethod, method)
	var name *string
	switch mcp.MCPMethod(method) {
	case mcp.MethodToolsCall, mcp.MethodPromptsGet:
		name = p.Name
	case mcp.MethodResourcesRead:
		name = p.URI
	}
	if name != nil {
		h.Set(headerName, encodeHeader(*name))
	}
	if mcp.MCPMethod(method) != mcp.MethodToolsCall || p.Name == nil || schemaOf == nil {
		return
	}
	params, err := model.ParamHeaders(schemaOf(*p.Name))
	if err != nil {
		return // a tool a client rejects, called anyway (call --no-validate): nothing to mirror
	}
	for _, ph := range params {
		if v, ok := headerValue(argumentAt(p.Arguments, ph.Path)); ok {
			h.Set(headerParamStart+ph.Name, v)
		}
	}
}

// encodeHeader is s as a header value: as it is when it is plain visible
// ASCII, else =?base64?...?=.
func encodeHeader(s string) string {
	v, _ := mcp.EncodeHeaderValue(s)
	return v
}

// argumentAt returns the raw value at path in the arguments object, nil
// when there is none.
func argumentAt(args json.RawMessage, path []string) json.RawMessage {
	cur := args
	for _, key := range path {
		var obj map[string]json.RawMessage
		if len(cur) == 0 || cur[0] != '{' || json.Unmarshal(cur, &obj) != nil {
			return nil
		}
		cur = obj[key]
	}
	return cur
}

// maxSafeInteger is the largest integer a double holds exactly, the bound
// the specification puts on an integer header value.
const maxSafeInteger = 1<<53 - 1

// headerValue is the header value of an argument: a string as it is, a
// boolean as true or false, an integer in decimal, each encoded by
// encodeHeader. ok is false for what the header is omitted for: no value,
// null, an object or array, and a number that is not an integer within
// ±(2^53-1).
func headerValue(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return encodeHeader(s), true
	case 't', 'f':
		return string(raw), true
	case 'n', '{', '[':
		return "", false
	}
	if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		if i < -maxSafeInteger || i > maxSafeInteger {
			return "", false
		}
		return strconv.FormatInt(i, 10), true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return "", false
	}
	return strconv.FormatInt(int64(f), 10), true
}

// markRejected marks the rows a client over streamable HTTP at protocol
// rejects for their x-mcp-header annotations (model.MarkRejected); other
// transports may ignore the annotations, and the reference SDKs do.
func (c *conn) markRejected(tools []model.Tool, protocol string) {
	if c.spec.Transport == config.TransportHTTP {
		model.MarkRejected(tools, protocol)
	}
}

// inputSchema returns the input schema of the first row the server last
// listed under the wire name, nil when none.
func (c *conn) inputSchema(wire string) json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.ready.Tools {
		if t := &c.ready.Tools[i]; t.NameOK && t.Name == wire {
			return t.InputSchema
		}
	}
	return nil
}
