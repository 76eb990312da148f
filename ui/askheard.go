package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
)

// heard is what a question says, decoded from its params by hear on the
// goroutine that asks it (Questions.Ask), never on the event loop: the
// params can be as long as Limits.Question lets them be, and decoding
// megabytes takes longer than a frame.
type heard struct {
	kind askKind
	// text is what the server says, one block each, as sent (asking.text).
	text []string
	url  string
	// form is an elicitation's form and schema what checks its content.
	form   *schemaform.Form
	schema *argcheck.Schema
}

// hear decodes a question: what is missing is shown empty.
func hear(q loader.Question) heard {
	var p struct {
		Mode            string          `json:"mode"`
		Message         string          `json:"message"`
		URL             string          `json:"url"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	var h heard
	if q.Method == model.MethodCreateMessage {
		h.kind, h.text = askSampling, conversation(q.Params)
		return h
	}
	_ = json.Unmarshal(q.Params, &p)
	if p.Message != "" {
		h.text = []string{p.Message}
	}
	if p.Mode == "url" {
		h.kind, h.url = askURL, p.URL
		return h
	}
	h.kind, h.form = askForm, elicitationForm(p.RequestedSchema)
	h.schema, _ = argcheck.Compile(p.RequestedSchema) // a schema that does not compile checks nothing
	return h
}

// conversation is what a sampling request shows: the system prompt, each
// message, and the model preferences, one block each, as sent.
func conversation(params json.RawMessage) []string {
	var p struct {
		SystemPrompt string `json:"systemPrompt"`
		MaxTokens    int    `json:"maxTokens"`
		Messages     []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		ModelPreferences *struct {
			Hints []struct {
				Name string `json:"name"`
			} `json:"hints"`
			Cost         *float64 `json:"costPriority"`
			Speed        *float64 `json:"speedPriority"`
			Intelligence *float64 `json:"intelligencePriority"`
		} `json:"modelPreferences"`
	}
	_ = json.Unmarshal(params, &p)
	var lines []string
	if p.SystemPrompt != "" {
		lines = append(lines, "system: "+p.SystemPrompt)
	}
	for _, m := range p.Messages {
		lines = append(lines, m.Role+": "+contentText(m.Content))
	}
	if mp := p.ModelPreferences; mp != nil {
		var prefs []string
		for _, h := range mp.Hints {
			prefs = append(prefs, "hint "+h.Name)
		}
		for _, pr := range []struct {
			name string
			v    *float64
		}{{"cost", mp.Cost}, {"speed", mp.Speed}, {"intelligence", mp.Intelligence}} {
			if pr.v != nil {
				prefs = append(prefs, fmt.Sprintf("%s %g", pr.name, *pr.v))
			}
		}
		lines = append(lines, "model preferences: "+strings.Join(prefs, ", "))
	}
	if p.MaxTokens > 0 {
		lines = append(lines, fmt.Sprintf("max tokens: %d", p.MaxTokens))
	}
	return lines
}

// contentText is a message's content as text: its text, or its type for
// content that is not text.
func contentText(raw json.RawMessage) string {
	var one struct {
		Type, Text string
	}
	if json.Unmarshal(raw, &one) == nil {
		if one.Type == "text" {
			return one.Text
		}
		return "[" + one.Type + "]"
	}
	var many []json.RawMessage
	_ = json.Unmarshal(raw, &many)
	var parts []string
	for _, c := range many {
		parts = append(parts, contentText(c))
	}
	return strings.Join(parts, " ")
}
