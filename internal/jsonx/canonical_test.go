package jsonx

import "testing"

func TestCanonical(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"members sorted at every level", `{"b":{"z":1,"y":2},"a":[{"d":0,"c":0}]}`, `{"a":[{"c":0,"d":0}],"b":{"y":2,"z":1}}`},
		{"whitespace dropped", " { \"a\" :\n[ 1 , 2 ] } ", `{"a":[1,2]}`},
		{"numbers as a double", `[1.50,1e3,-0,0.1e1,100000000000000000000000]`, `[1.5,1000,0,1,1e+23]`},
		{"strings escaped minimally", `"<&>\u0063\/\u00e9\u001f"`, `"<&>c/é\u001f"`},
		{"names sorted by UTF-16", `{"\ud83d\ude00":1,"\ufb33":2}`, "{\"\U0001F600\":1,\"\ufb33\":2}"},
		{"a repeated name keeps its last value", `{"a":1,"b":{"c":1,"c":2},"a":3}`, `{"a":3,"b":{"c":2}}`},
		{"invalid UTF-8 replaced", "\"a\xffb\"", `"a�b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical([]byte(tt.in))
			if err != nil || string(got) != tt.want {
				t.Errorf("Canonical(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
			}
			if again, err := Canonical(got); err != nil || string(again) != string(got) {
				t.Errorf("Canonical(%s) = %s, %v; want it unchanged", got, again, err)
			}
		})
	}
	for _, bad := range []string{`{`, `[1,]`, `1 2`, ``} {
		if got, err := Canonical([]byte(bad)); err == nil {
			t.Errorf("Canonical(%q) = %s, want an error", bad, got)
		}
	}
}

func TestIndent(t *testing.T) {
	got, err := Indent([]byte(`{"a":[1,{}],"b":"<\u0041>"}`))
	want := "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"<\\u0041>\"\n}"
	if err != nil || string(got) != want {
		t.Errorf("Indent = %s, %v; want %s", got, err, want)
	}
}
