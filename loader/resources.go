package loader

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
)

// The requests a user makes of a server's offers, one Session method each,
// used by the interface and headless alike: resources/read,
// resources/subscribe and unsubscribe, prompts/get, completion/complete.
// Each goes out as the lister's requests do (over stdio written by mcplens
// and taken from the tap), so its answer's result is the bytes as sent;
// each is bounded by the server's timeout and by Limits.Result.

// A Content is one piece of what a server answered a read or a prompt
// with: a resource's contents, or a prompt message's content.
type Content struct {
	// Type is the content's type: "text", "blob" (a resource's binary
	// contents), "image", "audio", "resource", "resource_link".
	Type     string
	URI      string
	MIMEType string
	// Text is the text of a text content or a text resource.
	Text string
	// Blob is the decoded binary of a blob, image or audio; BlobErr says
	// why it could not be decoded.
	Blob    []byte
	BlobErr string
	// Raw is the content object as sent.
	Raw json.RawMessage
}

// A ResourceRead is the answer to one resources/read.
type ResourceRead struct {
	Contents []Content
	// Result is the answer's result as sent.
	Result json.RawMessage
}

// A PromptMessage is one message of a prompts/get answer.
type PromptMessage struct {
	Role    string
	Content Content
}

// A PromptResult is the answer to one prompts/get.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
	Result      json.RawMessage
}

// A CompletionRef is what a completion/complete is about: a prompt's
// argument (Prompt set) or a resource template's variable (Template set).
type CompletionRef struct {
	Prompt, Template string
}

// A Completion is the values a server suggested for an argument.
type Completion struct {
	Values  []string
	Total   int // 0 when the server did not say
	HasMore bool
}

// ReadResource reads the resource uri of server.
func (s *Session) ReadResource(ctx context.Context, server, uri string) (ResourceRead, error) {
	result, err := s.offerRequest(ctx, server, mcp.MethodResourcesRead, map[string]any{"uri": uri})
	if err != nil {
		return ResourceRead{Result: result}, fmt.Errorf("reading %q on %s: %w", uri, server, err)
	}
	var answer struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(result, &answer); err != nil {
		return ResourceRead{Result: result}, fmt.Errorf("reading %q on %s: the result is not a resources/read result: %v", uri, server, err)
	}
	read := ResourceRead{Result: result}
	for _, c := range answer.Contents {
		read.Contents = append(read.Contents, contentOf(c, true))
	}
	return read, nil
}

// Subscribe asks server for notifications/resources/updated about uri
// (ResourceUpdates keeps them); Unsubscribe stops them.
func (s *Session) Subscribe(ctx context.Context, server, uri string) error {
	return s.subscription(ctx, server, uri, true)
}

// Unsubscribe undoes Subscribe.
func (s *Session) Unsubscribe(ctx context.Context, server, uri string) error {
	return s.subscription(ctx, server, uri, false)
}

func (s *Session) subscription(ctx context.Context, server, uri string, on bool) error {
	method, doing := mcp.MethodResourcesSubscribe, "subscribing to"
	if !on {
		method, doing = mcp.MethodResourcesUnsubscribe, "unsubscribing from"
	}
	if s.resubscribe(server, uri, on) {
		return nil
	}
	if _, err := s.offerRequest(ctx, server, method, map[string]any{"uri": uri}); err != nil {
		return fmt.Errorf("%s %q on %s: %w", doing, uri, server, err)
	}
	s.conn(server).offers.mark(uri, on)
	return nil
}

// GetPrompt gets the prompt name of server filled with args.
func (s *Session) GetPrompt(ctx context.Context, server, name string, args map[string]string) (PromptResult, error) {
	params := map[string]any{"name": name}
	if len(args) > 0 {
		params["arguments"] = args
	}
	result, err := s.offerRequest(ctx, server, mcp.MethodPromptsGet, params)
	if err != nil {
		return PromptResult{Result: result}, fmt.Errorf("getting prompt %q on %s: %w", name, server, err)
	}
	var answer struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(result, &answer); err != nil {
		return PromptResult{Result: result}, fmt.Errorf("getting prompt %q on %s: the result is not a prompts/get result: %v", name, server, err)
	}
	pr := PromptResult{Description: answer.Description, Result: result}
	for _, m := range answer.Messages {
		pr.Messages = append(pr.Messages, PromptMessage{Role: m.Role, Content: contentOf(m.Content, false)})
	}
	return pr, nil
}

// Complete asks server for values of the argument arg of ref, given its
// value so far and the values of the other arguments (known).
func (s *Session) Complete(ctx context.Context, server string, ref CompletionRef, arg, value string, known map[string]string) (Completion, error) {
	r := map[string]any{"type": "ref/prompt", "name": ref.Prompt}
	if ref.Template != "" {
		r = map[string]any{"type": "ref/resource", "uri": ref.Template}
	}
	params := map[string]any{"ref": r, "argument": map[string]any{"name": arg, "value": value}}
	if len(known) > 0 {
		params["context"] = map[string]any{"arguments": known}
	}
	result, err := s.offerRequest(ctx, server, mcp.MethodCompletionComplete, params)
	if err != nil {
		return Completion{}, fmt.Errorf("completing %q on %s: %w", arg, server, err)
	}
	var answer struct {
		Completion struct {
			Values  []string `json:"values"`
			Total   int      `json:"total"`
			HasMore bool     `json:"hasMore"`
		} `json:"completion"`
	}
	if err := json.Unmarshal(result, &answer); err != nil {
		return Completion{}, fmt.Errorf("completing %q on %s: the result is not a completion/complete result: %v", arg, server, err)
	}
	return Completion(answer.Completion), nil
}

// offerRequest sends one request to a Ready server, within its timeout,
// and returns the result as sent.
func (s *Session) offerRequest(ctx context.Context, server string, method mcp.MCPMethod, params map[string]any) (json.RawMessage, error) {
	c := s.conn(server)
	if c == nil {
		return nil, fmt.Errorf("no server %q", server)
	}
	c.mu.Lock()
	state, l := c.state, c.lister
	c.mu.Unlock()
	if state != mcpsession.Ready || l == nil {
		return nil, fmt.Errorf("%w (%s)", ErrNotReady, state)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	limit := s.opts.Limits.Result
	result, size, err := c.inRounds(ctx, l, method, params, limit) // rounds.go
	switch {
	case err != nil:
		return nil, describeRequestErr(err, c.timeout)
	case int64(size) > limit || result == nil && size > 0:
		return nil, &LimitError{Limit: "result", Max: limit, What: "the result"}
	}
	return result, nil
}

// describeRequestErr words a request's error: a deadline as the bound
// it was.
func describeRequestErr(err error, timeout time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s", timeout)
	}
	return err
}

// contentOf reads one content object: a resource's contents (resource
// true: text or blob) or a message's content (its type says).
func contentOf(raw json.RawMessage, resource bool) Content {
	c := Content{Raw: raw}
	r, _ := decodeRow(raw)
	if r == nil {
		c.Type = "invalid"
		return c
	}
	c.Type, c.URI, c.MIMEType, c.Text = r.str("type"), r.str("uri"), r.str("mimeType"), r.str("text")
	blob := r.str("blob")
	if resource {
		c.Type = "text"
		if _, ok := r["blob"]; ok {
			c.Type = "blob"
		}
	}
	if c.Type == "image" || c.Type == "audio" {
		blob = r.str("data")
	}
	if c.Type == "resource" {
		inner := contentOf(r["resource"], true)
		c.URI, c.MIMEType, c.Text, c.Blob, c.BlobErr = inner.URI, inner.MIMEType, inner.Text, inner.Blob, inner.BlobErr
		return c
	}
	if blob != "" {
		b, err := base64.StdEncoding.DecodeString(blob)
		if err != nil {
			c.BlobErr = "not valid base64: " + err.Error()
		}
		c.Blob = b
	}
	return c
}
