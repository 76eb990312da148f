package argcheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/argcheck"
	"github.com/mcplens/mcplens/internal/testkit/headertest"
)

// A server's schema that points outside itself, at a loopback server that
// counts what it is asked or at a file whose schema would fail the
// arguments if read, is refused, and nothing is fetched: not by $ref, not
// by a base $id turning a relative $ref remote, not by $schema, nor
// $dynamicRef.
func TestRemoteReferencesNeverFetched(t *testing.T) {
	srv := headertest.Start(t, headertest.Options{})
	canary := srv.CanaryURL
	base := strings.TrimSuffix(canary, "schema.json")
	file := filepath.Join(t.TempDir(), "string.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{
		"$ref http":         `{"type":"object","properties":{"a":{"$ref":"` + canary + `"}}}`,
		"$ref http pointer": `{"type":"object","properties":{"a":{"$ref":"` + canary + `#/x"}}}`,
		"$id then relative": `{"$id":"` + base + `","type":"object","properties":{"a":{"$ref":"schema.json"}}}`,
		"$schema":           `{"$schema":"` + canary + `","type":"object"}`,
		"$dynamicRef":       `{"type":"object","properties":{"a":{"$dynamicRef":"` + canary + `#node"}}}`,
		"$ref file":         `{"type":"object","properties":{"a":{"$ref":"file://` + file + `"}}}`,
		"$ref /etc/passwd":  `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`,
	}
	for name, schema := range schemas {
		problems, err := argcheck.Validate([]byte(schema), []byte(`{"a":1}`))
		if err == nil || len(problems) > 0 {
			t.Errorf("%s: problems %v, err %v; want the schema refused, unread", name, problems, err)
		}
	}
	if n := srv.CanaryHits(); n != 0 {
		t.Fatalf("the loopback server was asked %d times, want 0", n)
	}
}

// The 2020-12 keywords are checked as the draft says, not skipped.
func TestValidate202012(t *testing.T) {
	const s = `{"type":"object",
"$defs":{"id":{"type":"string","pattern":"^[a-z]+$"}},
"properties":{
 "pair":{"type":"array","prefixItems":[{"type":"integer"},{"$ref":"#/$defs/id"}],"items":false},
 "card":{"type":"string"},
 "cvv":{"type":"string"},
 "kind":{"enum":["a","b"]}},
"dependentSchemas":{"card":{"required":["cvv"]}},
"if":{"properties":{"kind":{"const":"b"}}},"then":{"required":["pair"]},
"unevaluatedProperties":false}`
	tests := []struct{ args, want string }{
		{`{"pair":[1,"ab"],"card":"x","cvv":"1","kind":"b"}`, ""},
		{`{"pair":["1","ab"]}`, "/pair/0"},
		{`{"pair":[1,"AB"]}`, "/pair/1"},
		{`{"pair":[1,"ab",3]}`, "/pair"},
		{`{"card":"x"}`, "cvv"},
		{`{"kind":"b"}`, "pair"},
		{`{"other":1}`, "other"},
	}
	for _, tt := range tests {
		problems, err := argcheck.Validate([]byte(s), []byte(tt.args))
		if err != nil {
			t.Fatalf("Validate(%s): %v", tt.args, err)
		}
		var got []string
		for _, p := range problems {
			got = append(got, p.String())
		}
		joined := strings.Join(got, "; ")
		if (tt.want == "") != (len(problems) == 0) || !strings.Contains(joined, tt.want) {
			t.Errorf("Validate(%s) = %q, want a problem naming %q", tt.args, joined, tt.want)
		}
	}
}
