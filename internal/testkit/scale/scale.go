package scale

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A Tool is one generated tools/list row.
type Tool struct {
	Name        string
	Description string
	// Schema is the inputSchema, about 1 KB of JSON.
	Schema []byte
}

// Row is the tool as a tools/list row: name, description, inputSchema.
func (t Tool) Row() []byte {
	name, _ := json.Marshal(t.Name)
	desc, _ := json.Marshal(t.Description)
	row := make([]byte, 0, len(name)+len(desc)+len(t.Schema)+48)
	row = append(row, `{"name":`...)
	row = append(row, name...)
	row = append(row, `,"description":`...)
	row = append(row, desc...)
	row = append(row, `,"inputSchema":`...)
	row = append(row, t.Schema...)
	return append(row, '}')
}

var (
	verbs = []string{"get", "list", "create", "update", "delete", "search", "fetch", "sync",
		"export", "import", "archive", "restore", "validate", "describe", "watch", "run"}
	nouns = []string{"issue", "pull_request", "repository", "file", "branch", "commit", "user",
		"team", "project", "ticket", "invoice", "customer", "order", "payment", "message",
		"channel", "document", "page", "record", "table", "query", "dashboard", "alert",
		"metric", "log", "deployment", "cluster", "pod", "bucket", "secret", "webhook",
		"calendar_event", "contact", "lead", "campaign", "report", "workflow", "build",
		"artifact", "release"}
	products = []string{"github", "slack", "jira", "notion", "linear", "stripe", "hubspot",
		"datadog", "sentry", "gitlab", "confluence", "zendesk", "salesforce", "asana",
		"figma", "vercel", "supabase", "postgres", "redis", "kubernetes"}
	// generic names are advertised by many servers at once.
	generic = []string{"search", "fetch", "read_file", "write_file", "list_files", "query",
		"get_status", "health_check", "run_command", "send_message", "get_config",
		"list_resources", "execute", "describe_schema", "ping", "whoami", "get_version",
		"list_tools", "summarize", "translate"}
	fields = []struct{ name, typ, desc string }{
		{"id", "string", "The unique identifier of the object, as returned by the list call."},
		{"owner", "string", "The account or organization that owns the object; defaults to the authenticated user."},
		{"query", "string", "Free-text search terms. Quoted phrases match exactly; prefix a term with - to exclude it."},
		{"limit", "integer", "How many results to return at most, between 1 and 100."},
		{"cursor", "string", "An opaque cursor from a previous response, to continue where it stopped."},
		{"include_archived", "boolean", "Whether archived objects are included in the results."},
		{"fields", "array", "The fields to return for each object; all fields when empty."},
		{"since", "string", "Only objects changed at or after this time, in RFC 3339 format."},
		{"labels", "array", "Labels the object must carry, all of them."},
		{"body", "string", "The text content, in Markdown. Mentions and links are resolved by the service."},
		{"dry_run", "boolean", "Validate the request and report what would change without changing anything."},
		{"metadata", "object", "Arbitrary key-value pairs stored with the object."},
	}
)

// Label is the config key of server i: svc-000, svc-001, ... with every
// seventh one named after a product instead (github-7, ...), as real
// configs mix both.
func Label(i int) string {
	if i%7 == 0 && i > 0 {
		return products[i%len(products)] + "-" + strconv.Itoa(i)
	}
	return fmt.Sprintf("svc-%03d", i)
}

// Name is the wire name of tool j on server i. Names are unique within a
// server.
func Name(i, j int) string {
	combos := len(verbs) * len(nouns)
	round := ""
	switch {
	case j%10 == 0: // a generic name, shared with most other servers
		k := j / 10
		if r := k / len(generic); r > 0 {
			round = "_" + strconv.Itoa(r+1)
		}
		return generic[k%len(generic)] + round
	case j%97 == 13 && i%10 == 3: // too long once qualified as mcp__server__tool
		return fmt.Sprintf("generate_the_complete_quarterly_compliance_report_section_%d", j)
	case j%50 == 7: // a dot: fine on the wire and for Gemini, not for OpenAI
		return products[(i+j)%len(products)] + "." + verbs[j%len(verbs)] + "_" + nouns[(j/3)%len(nouns)]
	}
	k := (j + i*53) % combos
	if r := j / combos; r > 0 {
		round = "_v" + strconv.Itoa(r+1)
	}
	name := verbs[k%len(verbs)] + "_" + nouns[k/len(verbs)] + round
	if i%4 != 0 { // most servers prefix their product; the rest collide
		name = product(i) + "_" + name
	}
	return name
}

// product names server i's product: github, ..., then github2, ...
func product(i int) string {
	p := products[i%len(products)]
	if r := i / len(products); r > 0 {
		p += strconv.Itoa(r + 1)
	}
	return p
}

// Tools returns the n tools server i advertises, in order.
func Tools(i, n int) []Tool {
	tools := make([]Tool, n)
	for j := range tools {
		name := Name(i, j)
		tools[j] = Tool{Name: name, Description: description(i, j, name), Schema: Schema(i, j)}
	}
	return tools
}

// description is a sentence or three; one in forty points at a tool of
// another server, the shape cross-reference findings look for.
func description(i, j int, name string) string {
	words := strings.ReplaceAll(name, "_", " ")
	d := fmt.Sprintf("Runs %s against the %s service and returns the result as JSON. "+
		"Requires a token with read access; write operations also need the write scope.",
		words, products[i%len(products)])
	if j%40 == 21 {
		d += " Call " + Name(i+1, j+1) + " on " + Label(i+1) + " first to resolve the identifier."
	}
	return d
}

// Schema returns the input schema of tool j on server i: an object with
// six to nine properties, descriptions and constraints, about 1 KB.
func Schema(i, j int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	n := 6 + (i+j)%4 // distinct fields: the step 5 is prime to len(fields)
	var required []string
	for k := range n {
		f := fields[(j+k*5)%len(fields)]
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `%q:{"type":%q,"description":%q`, f.name, f.typ, f.desc)
		switch f.typ {
		case "integer":
			b.WriteString(`,"minimum":1,"maximum":100,"default":20`)
		case "array":
			b.WriteString(`,"items":{"type":"string"},"uniqueItems":true`)
		case "object":
			b.WriteString(`,"additionalProperties":{"type":"string"}`)
		case "string":
			if k%3 == 0 {
				b.WriteString(`,"minLength":1,"maxLength":256`)
			}
		}
		b.WriteByte('}')
		if k%2 == 0 {
			required = append(required, f.name)
		}
	}
	b.WriteString(`},"required":[`)
	for k, r := range required {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", r)
	}
	b.WriteString(`],"additionalProperties":false}`)
	return []byte(b.String())
}
