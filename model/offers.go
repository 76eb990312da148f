package model

import "encoding/json"

// What a server offers beside its tools: resources, resource templates and
// prompts, each row kept as listed (Raw) with the fields mcplens shows read
// out of it. Server text in them is shown through Sanitize, like a tool's.

// A Prompt is one row of a server's prompts/list answer.
type Prompt struct {
	// Name is the prompt's name; meaningful only when NameOK.
	Name        string
	NameOK      bool
	NameProblem string // why the name is unusable, "" when NameOK
	Title       string
	Description string
	Arguments   []PromptArgument
	// Raw is the whole row exactly as listed.
	Raw json.RawMessage
}

// A PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name, Title, Description string
	Required                 bool
}

// A Resource is one row of a server's resources/list answer.
type Resource struct {
	URI, Name, Title, Description, MIMEType string
	// Size is the size the server gave, -1 when it gave none.
	Size int64
	Raw  json.RawMessage
}

// A ResourceTemplate is one row of a server's resources/templates/list
// answer: a URI template (RFC 6570) a client fills to read a resource.
type ResourceTemplate struct {
	URITemplate, Name, Title, Description, MIMEType string
	Raw                                             json.RawMessage
}

// A PromptCatalogue is the prompts one server listed, in its order.
type PromptCatalogue struct {
	Server  string // the server label
	Prompts []Prompt
}

// rows returns the prompts as the rows a builder registers: the one
// register path tools take, with the prompt's name as the wire name.
func (c PromptCatalogue) rows() Catalogue {
	cat := Catalogue{Server: c.Server, Tools: make([]Tool, len(c.Prompts))}
	for i, p := range c.Prompts {
		cat.Tools[i] = Tool{Name: p.Name, NameOK: p.NameOK, NameProblem: p.NameProblem, Title: p.Title, Description: p.Description, Raw: p.Raw}
	}
	return cat
}
