package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcplens/mcplens/mcpsession"
)

// The scans of jsonscan.go must say what decoding says.

var envelopeSamples = []string{
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":{"id":"inner","method":"no"}}}`,
	`{"jsonrpc":"2.0","id":"list-1","result":{"tools":[]}}`,
	` { "id" : 12 , "result" : { "content" : [ { "type" : "text" , "text" : "a \"quoted\" } ]" } ] , "isError" : true } } `,
	`{"id":null,"error":{"code":-32700,"message":"parse"}}`,
	`{"method":"notifications/progress","params":{"progressToken":"t","progress":1}}`,
	`{"ID":5,"method":"ping"}`,
	`{"id":5,"Method":"ping"}`,
	`{"i\u0064":5}`,
	`{"id":1,"id":2}`,
	`{"id":4.0}`,
	`{"id":-0}`,
	`{"id":1e3}`,
	`{"id":123456789012345678901234}`,
	`{"id":"a b"}`,
	`{"id":"a\"b"}`,
	`{"id":{"x":1},"result":{}}`,
	`{"result":{"isError":"true"}}`,
	`{"result":{"isError":null}}`,
	`{"result":null}`,
	`[1,2]`,
	`"string"`,
	`{}`,
}

func TestParseEnvelopeMatchesDecoding(t *testing.T) {
	for _, s := range envelopeSamples {
		var want envelope
		wantOK := json.Unmarshal([]byte(s), &want) == nil
		got, ok := parseEnvelope([]byte(s), true)
		if ok != wantOK || !sameEnvelope(got, want) || got.method() != want.method() {
			t.Errorf("parseEnvelope(%s) = %+v, %v; want %+v, %v", s, got, ok, want, wantOK)
		}
	}
}

func TestCanonicalIDFastPath(t *testing.T) {
	for _, raw := range []string{"0", "4", "-4", "-0", "999999", "1000000", "123456789012345", "4.0", "4e0", "007", `"x"`, `"a b"`, `"\u0041"`, "null", "1e21"} {
		got := canonicalID(json.RawMessage(raw))
		if id, ok := plainID([]byte(raw)); ok && id != got {
			t.Errorf("plainID(%s) = %q, but canonicalID without it gives %q", raw, id, got)
		}
		if want := slowCanonicalID(json.RawMessage(raw)); got != want {
			t.Errorf("canonicalID(%s) = %q, want %q", raw, got, want)
		}
	}
}

// slowCanonicalID is canonicalID by decoding only.
func slowCanonicalID(raw json.RawMessage) string {
	var n json.Number
	if len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &n) == nil {
		if f, err := n.Float64(); err == nil {
			return fmt.Sprintf("n:%v", f)
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

func FuzzJSONScan(f *testing.F) {
	for _, s := range envelopeSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if !json.Valid(line) {
			return
		}
		var want envelope
		wantOK := json.Unmarshal(line, &want) == nil
		got, ok := parseEnvelope(line, true)
		if ok != wantOK || !sameEnvelope(got, want) || got.method() != want.method() {
			t.Errorf("parseEnvelope(%s) = %+v, %v; want %+v, %v", line, got, ok, want, wantOK)
		}
		if len(want.ID) > 0 {
			if got, want := canonicalID(want.ID), slowCanonicalID(want.ID); got != want {
				t.Errorf("canonicalID(%s) = %q, want %q", want, got, want)
			}
		}
		if wantOK && want.Method != nil && want.Params != nil {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(want.Params, &p) == nil && !bytes.Equal(want.requestID(), p.RequestID) {
				t.Errorf("requestID(%s) = %s, want %s", want.Params, want.requestID(), p.RequestID)
			}
		}
		var res struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(line, &res) == nil {
			if v, found, ok := jsonMember(line, "result"); ok && (found != (res.Result != nil) || !bytes.Equal(v, res.Result)) {
				t.Errorf("jsonMember(%s, result) = %s, %v; want %s", line, v, found, res.Result)
			}
		}
	})
}

func sameEnvelope(a, b envelope) bool {
	return bytes.Equal(a.JSONRPC, b.JSONRPC) && bytes.Equal(a.ID, b.ID) && bytes.Equal(a.Method, b.Method) &&
		bytes.Equal(a.Result, b.Result) && bytes.Equal(a.Error, b.Error) && bytes.Equal(a.Params, b.Params)
}

func TestRequestIDMatchesDecoding(t *testing.T) {
	for _, params := range []string{`{"requestId":7,"reason":"x"}`, `[1,2]`, `null`, `{"RequestId":3}`, `{"requestId":"a"}`, `{}`} {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal([]byte(params), &p)
		if got := (envelope{Params: json.RawMessage(params)}).requestID(); !bytes.Equal(got, p.RequestID) {
			t.Errorf("requestID(%s) = %s, want %s", params, got, p.RequestID)
		}
	}
}

// slowPageRows and slowToolFromRow read a tools/list page by decoding only.
func slowPageRows(result []byte) ([]json.RawMessage, json.RawMessage, bool) {
	var page struct {
		Tools      *[]json.RawMessage `json:"tools"`
		NextCursor json.RawMessage    `json:"nextCursor"`
	}
	if json.Unmarshal(result, &page) != nil || page.Tools == nil {
		return nil, nil, false
	}
	return *page.Tools, page.NextCursor, true
}

func slowToolFromRow(row json.RawMessage) (name, title, description string, schema json.RawMessage, problem string) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(row, &fields) != nil {
		return "", "", "", nil, "not an object"
	}
	str := func(key string) string {
		var s string
		_ = json.Unmarshal(fields[key], &s)
		return s
	}
	if raw, ok := fields["name"]; !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		problem = "unusable"
	}
	return name, str("title"), str("description"), fields["inputSchema"], problem
}

var pageSamples = []string{
	`{"tools":[{"name":"a","description":"d","inputSchema":{"type":"object"}},{"name":"b"}],"nextCursor":"c"}`,
	` { "tools" : [ { "name" : "a\u0041" , "title" : "t\n" } , 7 , null , [ ] ] } `,
	`{"tools":[{"Name":"x"},{"name":"x","NAME":"y"},{"name":1},{"name":""},{"name":"é","description":"\ud800"}]}`,
	`{"tools":[{"name":"a","name":"b","inputSchema":1,"inputSchema":{"x":"}"}}]}`,
	`{"tools":null}`, `{"Tools":[]}`, `{"tools":[],"nextCursor":null}`, `[]`, `{"tools":{}}`,
}

// FuzzToolRows holds the scanned reading of a tools/list page, rows as
// slices of the page, to what decoding it reads.
func FuzzToolRows(f *testing.F) {
	for _, s := range pageSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		if !json.Valid(page) {
			return
		}
		wantRows, wantNext, wantOK := slowPageRows(page)
		rows, next, err := mcpsession.PageRows(page, "tools")
		if wantOK {
			if err != nil || len(rows) != len(wantRows) || !bytes.Equal(next, wantNext) {
				t.Fatalf("pageRows(%s) = %d rows, next %s, %v; want %d rows, next %s", page, len(rows), next, err, len(wantRows), wantNext)
			}
		} else if err == nil {
			t.Fatalf("pageRows(%s) reads a page decoding refuses", page)
		}
		for i, row := range rows {
			if !bytes.Equal(row, wantRows[i]) {
				t.Fatalf("row %d = %s, want %s", i, row, wantRows[i])
			}
			got := mcpsession.ToolOfRow(row)
			name, title, description, schema, problem := slowToolFromRow(row)
			if got.NameOK != (problem == "") || got.NameOK && got.Name != name || got.Title != title ||
				got.Description != description || !bytes.Equal(got.InputSchema, schema) {
				t.Errorf("ToolOfRow(%s) = %+v; decoding reads name %q (%s), title %q, description %q, schema %s",
					row, got, name, problem, title, description, schema)
			}
		}
	})
}

// BenchmarkJSONScan reads the members the tap reads of every frame: the
// envelope of a call's answer, its result and the result's isError.
func BenchmarkJSONScan(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":4711,"result":{"content":[{"type":"text","text":"` +
		string(bytes.Repeat([]byte("a \"quoted\" word, "), 40)) + `"}],"structuredContent":{"n":[1,2,3]},"isError":false}}`)
	b.ReportAllocs()
	for b.Loop() {
		env, ok := parseEnvelope(line, true)
		flag, _, _ := jsonMember(env.Result, "isError")
		if !ok || env.ID == nil || flag == nil {
			b.Fatal("scan failed")
		}
	}
}
