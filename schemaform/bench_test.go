package schemaform_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/schemaform"
)

// BenchmarkForm is what opening the argument editor and switching modes
// cost on a wide schema: the form built, filled, and its value written.
func BenchmarkForm(b *testing.B) {
	for _, n := range []int{10, 200} {
		var props, vals []string
		for i := range n {
			props = append(props, fmt.Sprintf(`"p%d":{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"integer"},"e":{"enum":["a","b"]},"l":{"type":"array","items":{"type":"string"}}},"required":["s"]}`, i))
			vals = append(vals, fmt.Sprintf(`"p%d":{"s":"text","n":%d,"e":"b","l":["x","y"]}`, i, i))
		}
		schema := json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
		args := json.RawMessage(`{` + strings.Join(vals, ",") + `}`)
		b.Run(fmt.Sprintf("new/%d", n), func(b *testing.B) {
			for b.Loop() {
				schemaform.New(schema, true)
			}
		})
		b.Run(fmt.Sprintf("fill+value/%d", n), func(b *testing.B) {
			f := schemaform.New(schema, true)
			for b.Loop() {
				if err := f.Fill(args); err != nil {
					b.Fatal(err)
				}
				if _, err := f.Value(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
