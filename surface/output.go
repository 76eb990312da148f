package surface

import (
	"encoding/json"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/model"
)

// OutputKind is the kind of the finding a call's result gives when it
// breaks the tool's outputSchema.
const OutputKind = "output-schema"

// OutputFindings checks a tools/call result against the outputSchema the
// tool advertised (its row's raw definition, tool): a tool that declares
// one must answer with structuredContent that conforms to it (MCP
// 2025-06-18, "Output Schema"), unless it reports an error. It returns
// one finding per violation, evidence naming where and how, masked with
// red (nil masks nothing); none when the tool declares no outputSchema or
// the result conforms. The interface and `call` read the same findings.
func OutputFindings(server string, tool model.Tool, result json.RawMessage, red *model.Redactor) []Finding {
	var def struct {
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if json.Unmarshal(tool.Raw, &def) != nil || len(def.OutputSchema) == 0 || string(def.OutputSchema) == "null" {
		return nil
	}
	var res struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(result, &res) != nil || res.IsError {
		return nil
	}
	finding := func(evidence string) Finding {
		return Finding{Severity: Warning, Kind: OutputKind, Server: server, Tool: tool.Name, Evidence: red.Values(evidence)}
	}
	if len(res.StructuredContent) == 0 || string(res.StructuredContent) == "null" {
		return []Finding{finding("the tool declares an outputSchema but its result has no structuredContent")}
	}
	problems, err := outputProblems(def.OutputSchema, res.StructuredContent)
	if err != nil {
		return []Finding{finding(err.Error())}
	}
	out := make([]Finding, 0, len(problems))
	for _, p := range problems {
		out = append(out, finding("structuredContent breaks the outputSchema: "+p))
	}
	return out
}

// outputProblems validates instance against schema with the check the
// argument editor uses (argcheck), returning each violation as "at
// /path: message" ("at the top" for the root), ordered by path.
func outputProblems(schema, instance json.RawMessage) ([]string, error) {
	sch, err := argcheck.CompileNamed("the outputSchema", schema)
	if err != nil || sch == nil {
		return nil, err
	}
	ps, err := sch.Check(instance)
	if err != nil {
		return nil, err
	}
	problems := make([]string, 0, len(ps))
	for _, p := range ps {
		at := p.Pointer
		if at == "" {
			at = "the top"
		}
		problems = append(problems, "at "+at+": "+p.Message)
	}
	return problems, nil
}
