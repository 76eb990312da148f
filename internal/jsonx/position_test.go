package jsonx

import (
	"encoding/json"
	"testing"
)

func TestProblem(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"comma", "{\n  \"a\": 1,\n}", "line 3, column 1: invalid character '}' looking for beginning of object key string"},
		{"quote", `{"a": x}`, "line 1, column 7: invalid character 'x' looking for beginning of value"},
		{"cut", `{"a": [1, 2`, "line 1, column 12: unexpected end of JSON input"},
		{"accent", "{\"é\": 1 2}", "line 1, column 9: invalid character '2' after object key:value pair"},
	} {
		var v any
		err := json.Unmarshal([]byte(tt.in), &v)
		if got := Problem([]byte(tt.in), err); got != tt.want {
			t.Errorf("%s: Problem(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}
