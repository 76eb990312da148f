package model_test

import (
	"fmt"

	"github.com/mcplens/mcplens/model"
)

// requestTwice is the motivating case of every seed: servers alpha and beta
// each advertise one tool named request.
func requestTwice() []model.Catalogue {
	return []model.Catalogue{
		{Server: "alpha", Tools: []model.Tool{{Name: "request", NameOK: true}}},
		{Server: "beta", Tools: []model.Tool{{Name: "request", NameOK: true}}},
	}
}

func show(reg *model.Registry) {
	for _, rt := range reg.Routes {
		fmt.Printf("route %s -> %s %s\n", rt.Name, rt.Server, rt.Wire)
	}
	for _, s := range reg.Servers {
		for _, o := range s.Outcomes {
			fmt.Printf("%s %s: %s", s.Server, o.Wire, o.Kind)
			if o.Name != "" {
				fmt.Printf(" as %s", o.Name)
			}
			if o.Reason != "" {
				fmt.Printf(" (%s)", o.Reason)
			}
			fmt.Println()
		}
	}
}

func ExamplePolicy_Apply_lionagiLegacy() {
	p, _ := model.PolicyNamed("lionagi-legacy")
	show(p.Apply(requestTwice()))
	// Output:
	// route request -> alpha request
	// alpha request: registered as request
	// beta request: dropped as request (name taken by alpha)
}

func ExamplePolicy_Apply_lionagiLegacyUpdate() {
	p, _ := model.PolicyNamed("lionagi-legacy-update")
	show(p.Apply(requestTwice()))
	// Output:
	// route request -> beta request
	// alpha request: displaced as request (overwritten by beta; calls to request now go to beta)
	// beta request: registered as request
}

func ExamplePolicy_Apply_lionagi() {
	p, _ := model.PolicyNamed("lionagi")
	reg := p.Apply(requestTwice())
	show(reg)
	alpha, _ := reg.Server("alpha")
	fmt.Println(alpha.Advertised, "advertised,", alpha.Registered, "registered, failed:", alpha.Failed)
	// Output:
	// route mcp__alpha__request -> alpha request
	// route mcp__beta__request -> beta request
	// alpha request: renamed as mcp__alpha__request
	// beta request: renamed as mcp__beta__request
	// 1 advertised, 1 registered, failed: false
}

// Under lionagi a collision after qualification is never a silent skip: the
// later server fails its postcondition, and fail-closed, keeps nothing.
func ExamplePolicy_Apply_lionagiPostcondition() {
	p, _ := model.PolicyNamed("lionagi")
	reg := p.Apply([]model.Catalogue{
		{Server: "a", Tools: []model.Tool{{Name: "b__c", NameOK: true}}},
		{Server: "a__b", Tools: []model.Tool{{Name: "c", NameOK: true}, {Name: "d", NameOK: true}}},
	})
	show(reg)
	s, _ := reg.Server("a__b")
	fmt.Println(s.Err)
	// Output:
	// route mcp__a__b__c -> a b__c
	// a b__c: renamed as mcp__a__b__c
	// a__b c: dropped as mcp__a__b__c (name mcp__a__b__c taken by server a (tool b__c))
	// a__b d: dropped as mcp__a__b__d (withheld: server a__b failed its postcondition (fail-closed))
	// advertised 2 tool(s) but 1 registered; missing: ["c"]
}

func ExamplePolicy_Apply_qwen() {
	p, _ := model.PolicyNamed("qwen")
	cats := append(requestTwice(), model.Catalogue{
		Server: "zybio",
		Tools:  []model.Tool{{Name: "literature.search_pubmed", NameOK: true}},
	})
	show(p.Apply(cats))
	// Output:
	// route mcp__alpha__request -> alpha request
	// route mcp__beta__request -> beta request
	// route mcp__zybio__literature_search_pubmed_0bhdeaz -> zybio literature.search_pubmed
	// alpha request: renamed as mcp__alpha__request
	// beta request: renamed as mcp__beta__request
	// zybio literature.search_pubmed: renamed as mcp__zybio__literature_search_pubmed_0bhdeaz (normalized: '.' is outside [A-Za-z0-9_-]; hash of the original appended)
}

func ExamplePolicy_Apply_symfonic() {
	p, _ := model.PolicyNamed("symfonic")
	show(p.Apply(requestTwice()))
	// Output:
	// route alpha.request -> alpha request
	// route beta.request -> beta request
	// alpha request: renamed as alpha.request (request is advertised by 2 servers (alpha, beta): qualified)
	// beta request: renamed as beta.request (request is advertised by 2 servers (alpha, beta): qualified)
}

func ExampleProfile_Check() {
	p, _ := model.PolicyNamed("symfonic")
	reg := p.Apply(requestTwice())
	for _, prof := range model.DefaultProfiles() {
		c := prof.Check(reg.Servers[0].Outcomes[0])
		fmt.Println(c.Profile, c.Severity)
	}
	// Output:
	// openai fail
	// anthropic fail
	// gemini pass
}

func ExampleQwenName() {
	fmt.Println(model.QwenName("mcp__foo.bar__evil"))
	fmt.Println(model.QwenName("mcp__foo_bar__evil"))
	// Output:
	// mcp__foo_bar__evil_1oxrpi0
	// mcp__foo_bar__evil
}

func ExampleSanitize() {
	fmt.Println(model.Sanitize("\x1b]0;pwned\x07evil\u202etxt"))
	// Output: \x1b]0;pwned\aevil\u202etxt
}

func ExampleQuoteJSON() {
	fmt.Println(model.QuoteJSON("hi\u202eevil"))
	// Output: "hi\u202eevil"
}
