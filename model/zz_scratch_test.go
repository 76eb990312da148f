package model

import (
	"fmt"
	"strings"
	"testing"
)

func TestScratchTable(t *testing.T) {
	long := "search_indexed_documentation_pages_and_return_the_matching_"
	cfgs := []struct{ name string; cats []Catalogue }{
		{"same", []Catalogue{catalogue("alpha", "request"), catalogue("beta", "request")}},
		{"alike", []Catalogue{catalogue("foo.bar", "evil"), catalogue("foo_bar", "evil")}},
		{"sep", []Catalogue{catalogue("a", "b__c"), catalogue("a__b", "c")}},
		{"prefix", []Catalogue{catalogue("mcp_x", "y"), catalogue("x", "y")}},
		{"trunc-gemini", []Catalogue{catalogue("analytics-warehouse-primary-eu", "export_quarterly_revenue_report_as_csv"), catalogue("analytics-warehouse-primary-us", "export_quarterly_revenue_report_as_csv")}},
		{"trunc-vscode", []Catalogue{catalogue("docs", long+"sections", long+"summaries")}},
		{"dup", []Catalogue{catalogue("alpha", "request", "ping", "request")}},
	}
	for _, c := range cfgs {
		fmt.Println("==", c.name)
		for _, p := range Policies() {
			reg := p.Apply(c.cats)
			var rows []string
			for _, s := range reg.Servers {
				for _, o := range s.Outcomes {
					rows = append(rows, fmt.Sprintf("%s %s", o.Kind, o.Name))
				}
				if s.Failed { rows = append(rows, "FAILED:"+s.Err) }
				for _, n := range s.Notes { rows = append(rows, "NOTE:"+n[:min(40,len(n))]) }
			}
			var cs []string
			for _, col := range reg.Collisions() {
				cs = append(cs, fmt.Sprintf("%s/%v/w%d", col.Name, col.Class, col.Winner))
			}
			fmt.Printf("  %-22s %s || %s\n", p.Name, strings.Join(rows, " | "), strings.Join(cs, ", "))
		}
	}
}
