package argcheck_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/argcheck"
)

// wideSchema is an input schema of n properties, each an object of three
// typed fields, and arguments that fill every one.
func wideSchema(n int) (schema, args []byte) {
	var props, vals []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"object","properties":{"s":{"type":"string","maxLength":40},"n":{"type":"integer","minimum":0},"e":{"enum":["a","b","c"]}},"required":["s"]}`, i))
		vals = append(vals, fmt.Sprintf(`"p%d":{"s":"text","n":%d,"e":"b"}`, i, i))
	}
	return []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`), []byte(`{` + strings.Join(vals, ",") + `}`)
}

// BenchmarkValidate is what ctrl+s adds before a call: compiling the
// schema (once per editor) and checking the arguments.
func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{10, 200} {
		schema, args := wideSchema(n)
		b.Run(fmt.Sprintf("compile/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := argcheck.Compile(schema); err != nil {
					b.Fatal(err)
				}
			}
		})
		sch, _ := argcheck.Compile(schema)
		b.Run(fmt.Sprintf("check/%d", n), func(b *testing.B) {
			for b.Loop() {
				if ps, err := sch.Check(args); err != nil || len(ps) > 0 {
					b.Fatal(ps, err)
				}
			}
		})
	}
}
