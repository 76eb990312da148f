package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/audit"
	"github.com/mcplens/mcplens/report"
)

// TestAuditFormats writes one audit, of a server that sent no name, in
// every format: the text has no empty name between its parts, JSON and
// SARIF parse, the JUnit is XML.
func TestAuditFormats(t *testing.T) {
	a := report.Audit{Config: "c.json", Servers: []audit.Result{{Server: "s", Transport: "stdio", Asked: "2025-11-25", Revision: "2025-11-25"}}}
	for _, format := range []string{"text", "json", "markdown", "sarif", "junit"} {
		var b bytes.Buffer
		if err := report.WriteAudit(&b, a, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		out := b.String()
		switch format {
		case "text":
			if !strings.Contains(out, "s (stdio; asked 2025-11-25, answered 2025-11-25): 0 finding(s)") {
				t.Errorf("text: %q, want the server's line without a name", out)
			}
		case "json", "sarif":
			if !json.Valid(b.Bytes()) {
				t.Errorf("%s is not JSON: %s", format, out)
			}
		case "junit":
			if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
				t.Errorf("junit is not XML: %v", err)
			}
		}
	}
}
