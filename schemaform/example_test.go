package schemaform_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcplens/mcplens/schemaform"
)

func ExampleNew() {
	schema := json.RawMessage(`{"type":"object","properties":{
	  "city":{"type":"string","description":"where"},
	  "days":{"type":"integer","default":3},
	  "units":{"enum":["metric","imperial"]},
	  "stops":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
	  "required":["city"]}`)
	f := schemaform.New(schema, true)
	fmt.Println(schemaform.Format(f.Value())) // the JSON mode's skeleton: optional fields only with a default

	f.Root.Fields[3].AddItem().Fields[0].Text = "Dijon"
	f.Root.Fields[2].Choice = 1
	v, _ := f.Value()
	fmt.Println(string(v))
	for _, h := range f.Hints() {
		fmt.Println(h.Pointer, h.Type, h.Required, h.Choices)
	}
	// Output:
	// {
	//   "city": "",
	//   "days": 3
	// }
	// {"city":"","days":3,"units":"imperial","stops":[{"name":"Dijon"}]}
	// /city string true []
	// /days integer false []
	// /units one of false ["metric" "imperial"]
	// /stops array of object false []
	// /stops/-/name string true []
}
