package surface_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

func TestOutputFindings(t *testing.T) {
	const schema = `{"type":"object","properties":{"count":{"type":"integer"},"status":{"enum":["ok","degraded"]}},"required":["count","status"]}`
	withSchema := model.Tool{Name: "report", NameOK: true, Raw: json.RawMessage(`{"name":"report","outputSchema":` + schema + `}`)}
	tests := []struct {
		name   string
		tool   model.Tool
		result string
		want   []string // evidence fragments, one per finding
	}{
		{"conforms", withSchema, `{"content":[],"structuredContent":{"count":3,"status":"ok"}}`, nil},
		{"no outputSchema", model.Tool{Name: "x", Raw: json.RawMessage(`{"name":"x"}`)}, `{"content":[]}`, nil},
		{"tool error", withSchema, `{"content":[],"isError":true}`, nil},
		{"missing structuredContent", withSchema, `{"content":[]}`, []string{"has no structuredContent"}},
		{"wrong types", withSchema, `{"structuredContent":{"count":"three","status":"fine"}}`,
			[]string{"at /count: got string, want integer", "at /status: value must be one of"}},
		{"missing property", withSchema, `{"structuredContent":{"count":1}}`, []string{"at the top: missing property 'status'"}},
		{"schema broken", model.Tool{Name: "b", Raw: json.RawMessage(`{"name":"b","outputSchema":{"type":5}}`)}, `{"structuredContent":{}}`,
			[]string{"the outputSchema does not compile"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := surface.OutputFindings("srv", tt.tool, json.RawMessage(tt.result), nil)
			if len(got) != len(tt.want) {
				t.Fatalf("OutputFindings = %+v, want %d finding(s) %q", got, len(tt.want), tt.want)
			}
			for i, f := range got {
				if f.Kind != surface.OutputKind || f.Server != "srv" || f.Tool != tt.tool.Name || !strings.Contains(f.Evidence, tt.want[i]) {
					t.Errorf("finding %d = %+v, want kind %s, evidence with %q", i, f, surface.OutputKind, tt.want[i])
				}
			}
		})
	}
}
