package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/mcplens/mcplens/internal/testkit/headertest"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/schemaform"
)

// schema2020 uses the 2020-12 keywords a client must keep as they are.
const schema2020 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"id":{"type":"string","pattern":"^[a-z]+$"}},` +
	`"properties":{"pair":{"type":"array","prefixItems":[{"type":"integer"},{"$ref":"#/$defs/id"}],"items":false},` +
	`"card":{"type":"string"},"cvv":{"type":"string"},"kind":{"enum":["a","b"]}},` +
	`"dependentSchemas":{"card":{"required":["cvv"]}},"dependentRequired":{"cvv":["card"]},` +
	`"if":{"properties":{"kind":{"const":"b"}}},"then":{"required":["pair"]},"unevaluatedProperties":false}`

// TestSchema2020RoundTrip: a tool whose schema uses 2020-12 keywords is
// listed byte for byte, its arguments checked by them (a bad pair is
// refused), filled into the form and back unchanged, and sent as given.
func TestSchema2020RoundTrip(t *testing.T) {
	tools := `[{"name":"pairs","inputSchema":` + schema2020 + `}]`
	srv := headertest.Start(t, headertest.Options{Tools: tools})
	session, snap := settledAt2026(t, srv)
	listed := snap.Servers[0].Tools[0].InputSchema
	if !bytes.Equal(listed, []byte(schema2020)) {
		t.Fatalf("listed schema\n%s\nwant\n%s", listed, schema2020)
	}
	args := json.RawMessage(`{"pair":[7,"ab"],"card":"4111","cvv":"123","kind":"b"}`)
	form := schemaform.New(listed, false)
	if err := form.Fill(args); err != nil {
		t.Fatal(err)
	}
	back, err := form.Value()
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	_ = json.Unmarshal(args, &want)
	_ = json.Unmarshal(back, &got)
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("form round trip %s, want %s", back, args)
	}

	policy, _ := model.PolicyNamed("claude-code")
	reg := policy.Apply(snap.Catalogues())
	var out, errb bytes.Buffer
	c := &caller{ctx: context.Background(), std: stdio{out: &out, err: &errb}, session: session, snap: snap, limit: 30 * time.Second, validate: true}
	rt, _, _, err := c.resolve(reg, "pairs")
	if err != nil {
		t.Fatal(err)
	}
	if code := exit(&errb, "call", c.call(rt, "call", json.RawMessage(`{"pair":[7,"AB",1]}`))); code != exitUsage {
		t.Fatalf("a pair the schema refuses: exit %d, want %d; stderr:\n%s", code, exitUsage, errb.String())
	}
	if code := exit(&errb, "call", c.call(rt, "call", args)); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	req, _ := srv.Last("tools/call")
	var body struct {
		Params struct {
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil || !bytes.Equal(body.Params.Arguments, args) {
		t.Fatalf("sent arguments %s, want %s as given", body.Params.Arguments, args)
	}
}
