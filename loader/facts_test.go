package loader

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcplens/mcplens/mcpsession"
)

// factsOf keeps what a server said of itself, its instructions bounded on
// a rune boundary.
func TestFactsOf(t *testing.T) {
	init := &mcp.InitializeResult{
		ServerInfo:   mcp.Implementation{Name: "n", Title: "T", WebsiteURL: "https://x.test"},
		Instructions: "a" + strings.Repeat("é", mcpsession.MaxInstructions), // the bound falls inside a rune
	}
	init.Capabilities.Tools = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	init.Capabilities.Logging = &struct{}{}
	init.Capabilities.Experimental = map[string]any{"b": 1, "a": 2}
	f := factsOf(init)
	if want := []string{"tools(listChanged)", "logging", "experimental(a,b)"}; !slices.Equal(f.Capabilities, want) {
		t.Errorf("capabilities = %q, want %q", f.Capabilities, want)
	}
	if f.Title != "T" || f.Website != "https://x.test" {
		t.Errorf("title %q, website %q", f.Title, f.Website)
	}
	if !f.Cut || len(f.Instructions) > mcpsession.MaxInstructions || !utf8.ValidString(f.Instructions) {
		t.Errorf("instructions: %d bytes, cut %v, valid %v", len(f.Instructions), f.Cut, utf8.ValidString(f.Instructions))
	}
	if f := factsOf(&mcp.InitializeResult{Instructions: "short"}); f.Cut || f.Instructions != "short" || f.Capabilities != nil {
		t.Errorf("factsOf(short) = %+v", f)
	}
}

// A live server's facts and a recorded initialize answer's are read by one
// function: the same answer gives the same facts either way.
func TestFactsOfAgreesWithARecordedAnswer(t *testing.T) {
	raw := []byte(`{"protocolVersion":"2025-06-18","serverInfo":{"name":"n","version":"1","title":"T","websiteUrl":"https://x.test"},
		"instructions":"use me","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},
		"logging":{},"completions":{},"tasks":{},"experimental":{"z":{},"a":1},"extensions":{"io.x/y":{}}}}`)
	var init mcp.InitializeResult
	if err := json.Unmarshal(raw, &init); err != nil {
		t.Fatal(err)
	}
	recorded, err := mcpsession.FactsOfInitialize(raw)
	if err != nil {
		t.Fatal(err)
	}
	live := factsOf(&init)
	if !reflect.DeepEqual(live, recorded) {
		t.Errorf("facts of the live answer = %+v, of the recorded one = %+v", live, recorded)
	}
	if want := []string{"tools(listChanged)", "resources(subscribe)", "prompts", "logging", "completions", "tasks", "experimental(a,z)", "extensions(io.x/y)"}; !slices.Equal(recorded.Capabilities, want) {
		t.Errorf("capabilities = %q, want %q", recorded.Capabilities, want)
	}
}
