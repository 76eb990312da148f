package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles the SARIF 2.1.0 schema (OASIS, errata 01),
// vendored in report/testdata, formats asserted.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "report", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// sarifOf validates out against the schema and returns it decoded.
func sarifOf(t *testing.T, sch *jsonschema.Schema, out string) sarifDoc {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF log is not valid SARIF 2.1.0: %v\n%s", err, out)
	}
	// The schema can fail: a result without its message is not SARIF.
	broken := strings.Replace(out, `"message"`, `"messages"`, 1)
	if inst, err := jsonschema.UnmarshalJSON(strings.NewReader(broken)); err == nil && strings.Contains(out, `"message"`) && sch.Validate(inst) == nil {
		t.Error("the SARIF schema accepts a result without a message")
	}
	var doc sarifDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// sarifDoc is what the tests read of a SARIF log.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID   string `json:"id"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		AutomationDetails struct {
			ID string `json:"id"`
		} `json:"automationDetails"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

// fingerprints lists a run's results as rule and fingerprint.
func (d sarifDoc) fingerprints() []string {
	var out []string
	for _, r := range d.Runs[0].Results {
		for _, fp := range r.PartialFingerprints {
			out = append(out, r.RuleID+" "+fp)
		}
	}
	slices.Sort(out)
	return out
}

// TestCheckSARIF: check's SARIF log of real servers is valid SARIF 2.1.0,
// locates each server's results at its line in the config, has a rule
// with help for every finding kind, and gives the same fingerprints on a
// second run.
func TestCheckSARIF(t *testing.T) {
	sch := sarifSchema(t)
	dir := t.TempDir()
	cfg := demoFile(t, dir, "mcp.json",
		demoServer{label: "alpha", tools: []string{"request"}},
		demoServer{label: "beta", tools: []string{"request", "lit.search"}},
		demoServer{label: "broken", broken: true})
	var runs []sarifDoc
	for range 2 {
		code, out, errb := runChecked(t, cfg, "--policy", "lionagi-legacy", "--format", "sarif")
		if code != exitFound {
			t.Fatalf("check --format sarif: exit %d, want %d\n%s", code, exitFound, errb)
		}
		runs = append(runs, sarifOf(t, sch, out))
	}
	run := runs[0].Runs[0]
	if want := "mcplens/check/" + filepath.ToSlash(cfg) + "/"; run.AutomationDetails.ID != want {
		t.Errorf("automationDetails.id = %q, want %q", run.AutomationDetails.ID, want)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	// Each server's key is on its own line: alpha 2, beta 3, broken 4.
	lines := map[string]int{}
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		if !strings.HasSuffix(loc.ArtifactLocation.URI, "/mcp.json") {
			t.Errorf("%s at %q, want the config file", r.RuleID, loc.ArtifactLocation.URI)
		}
		lines[r.RuleID] = loc.Region.StartLine
		if loc.Region.StartColumn != 3 {
			t.Errorf("%s at column %d, want 3", r.RuleID, loc.Region.StartColumn)
		}
	}
	if want := map[string]int{"tool-lost": 3, "server-failed": 4}; lines["tool-lost"] != want["tool-lost"] || lines["server-failed"] != want["server-failed"] {
		t.Errorf("result lines = %v, want %v among them", lines, want)
	}
	if a, b := runs[0].fingerprints(), runs[1].fingerprints(); len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("fingerprints differ between runs:\n%v\n%v", a, b)
	}
	if fps := runs[0].fingerprints(); len(slices.Compact(slices.Clone(fps))) != len(fps) {
		t.Errorf("fingerprints repeat: %v", fps)
	}
}

// TestDiffSARIF: diff's SARIF log is valid, one rule per change class,
// errors for the --fail-on classes, stable over two runs.
func TestDiffSARIF(t *testing.T) {
	sch := sarifSchema(t)
	dir := t.TempDir()
	a := demoFile(t, dir, "a.json", demoServer{label: "alpha", tools: []string{"request", "retired"}})
	b := demoFile(t, dir, "b.json", demoServer{label: "alpha", tools: []string{"request"}}, demoServer{label: "beta", tools: []string{"request"}})
	var runs []sarifDoc
	for range 2 {
		code, out, errb := runDiffed(t, a, b, "--policy", "lionagi-legacy-update", "--format", "sarif")
		if code != exitFound {
			t.Fatalf("diff --format sarif: exit %d, want %d\n%s", code, exitFound, errb)
		}
		runs = append(runs, sarifOf(t, sch, out))
	}
	levels := map[string]string{}
	for _, r := range runs[0].Runs[0].Results {
		levels[r.RuleID] = r.Level
		// alpha's key is on line 2 of b.json, beta's on line 3.
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID == "removed" && (loc.Region.StartLine != 2 || !strings.HasSuffix(loc.ArtifactLocation.URI, "/b.json")) {
			t.Errorf("removed located at %s line %d, want b.json line 2", loc.ArtifactLocation.URI, loc.Region.StartLine)
		}
	}
	if levels["removed"] != "error" || levels["displaced"] != "error" || levels["server-added"] != "note" {
		t.Errorf("levels = %v, want removed and displaced errors, server-added a note", levels)
	}
	if a, b := runs[0].fingerprints(), runs[1].fingerprints(); len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("fingerprints differ between runs:\n%v\n%v", a, b)
	}
}

// TestCheckJUnit checks check's JUnit XML against the Apache Ant JUnit
// schema vendored in report/testdata (windyroad's JUnit.xsd). No XSD
// validator is in Go's standard library or this module's graph, so the
// test reads the schema itself: every element the schema requires, every
// attribute it marks required, and the types of the int, decimal and
// timestamp attributes.
func TestCheckJUnit(t *testing.T) {
	xsd := readXSD(t, filepath.Join("..", "report", "testdata", "junit.xsd"))
	dir := t.TempDir()
	cfg := demoFile(t, dir, "mcp.json",
		demoServer{label: "alpha", tools: []string{"request"}},
		demoServer{label: "beta", tools: []string{"request", "other"}},
		demoServer{label: "broken", broken: true})
	code, out, errb := runChecked(t, cfg, "--policy", "lionagi-legacy", "--format", "junit")
	if code != exitFound {
		t.Fatalf("check --format junit: exit %d\n%s", code, errb)
	}
	var root xmlNode
	if err := xml.Unmarshal([]byte(out), &root); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if problems := xsd.check("testsuites", root); len(problems) > 0 {
		t.Errorf("JUnit XML does not meet the schema:\n%s\n%s", strings.Join(problems, "\n"), out)
	}
	// The check can fail: without its system-out, a suite does not pass.
	mangled := regexp.MustCompile(`(?s)<system-out>.*?</system-out>`).ReplaceAllString(out, "")
	var bad xmlNode
	if err := xml.Unmarshal([]byte(mangled), &bad); err != nil {
		t.Fatal(err)
	}
	if problems := xsd.check("testsuites", bad); len(problems) == 0 {
		t.Error("JUnit XML without system-out meets the schema's requirements as read")
	}
	cases, failed := 0, map[string]string{}
	for _, s := range root.children("testsuite") {
		for _, c := range s.children("testcase") {
			cases++
			if f := c.children("failure"); len(f) > 0 {
				failed[c.attr("classname")+" "+c.attr("name")] = f[0].attr("type")
			}
		}
	}
	if cases != 6 { // a case per server (3) and per tool (3)
		t.Errorf("%d test cases, want 6\n%s", cases, out)
	}
	want := map[string]string{"beta request": "tool-lost", "beta (server)": "", "broken (server)": "server-failed"}
	if failed["beta request"] != want["beta request"] || failed["broken (server)"] != want["broken (server)"] || len(failed) != 2 {
		t.Errorf("failed cases = %v, want beta's request (tool-lost) and broken (server-failed)\n%s", failed, out)
	}
}

// An xmlNode is any XML element, for reading the schema and the report.
type xmlNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xmlNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n xmlNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n xmlNode) children(name string) []xmlNode {
	var out []xmlNode
	for _, c := range n.Children {
		if c.XMLName.Local == name {
			out = append(out, c)
		}
	}
	return out
}

// An xsd is a schema read for what it requires.
type xsd struct {
	types    map[string]xmlNode // named complex types
	elements map[string]xmlNode // top-level elements
}

func readXSD(t *testing.T, path string) xsd {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root xmlNode
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	x := xsd{types: map[string]xmlNode{}, elements: map[string]xmlNode{}}
	for _, c := range root.Children {
		switch c.XMLName.Local {
		case "complexType":
			x.types[c.attr("name")] = c
		case "element":
			x.elements[c.attr("name")] = c
		}
	}
	return x
}

// rules collects, from a declaration, its required attributes (name →
// type), its child element declarations, and which of them are required;
// an extension brings its base type's.
func (x xsd) rules(decl xmlNode, attrs map[string]string, kids map[string]xmlNode, required map[string]bool, inChoice bool) {
	for _, c := range decl.Children {
		switch c.XMLName.Local {
		case "attribute":
			if c.attr("use") == "required" {
				attrs[c.attr("name")] = c.attr("type")
			}
		case "element":
			kids[c.attr("name")] = c
			if !inChoice && c.attr("minOccurs") != "0" {
				required[c.attr("name")] = true
			}
		case "extension":
			if base, ok := x.types[c.attr("base")]; ok {
				x.rules(base, attrs, kids, required, false)
			}
			x.rules(c, attrs, kids, required, inChoice)
		case "choice":
			x.rules(c, attrs, kids, required, true)
		case "complexType", "sequence", "complexContent", "simpleContent":
			x.rules(c, attrs, kids, required, inChoice)
		}
	}
	if typ, ok := x.types[decl.attr("type")]; ok && decl.XMLName.Local == "element" {
		x.rules(typ, attrs, kids, required, false)
	}
}

var xsdDateTime = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$`)

// check checks n against the declaration of the top-level element name,
// returning what it lacks.
func (x xsd) check(name string, n xmlNode) []string {
	decl, ok := x.elements[name]
	if !ok || n.XMLName.Local != name {
		return []string{"root element " + n.XMLName.Local + ", want " + name}
	}
	return x.checkAgainst(name, decl, n)
}

func (x xsd) checkAgainst(path string, decl, n xmlNode) (problems []string) {
	attrs, kids, required := map[string]string{}, map[string]xmlNode{}, map[string]bool{}
	x.rules(decl, attrs, kids, required, false)
	for a, typ := range attrs {
		v := n.attr(a)
		bad := v == "" && !slices.Contains(attrNames(n), a)
		switch typ {
		case "xs:int":
			_, err := strconv.Atoi(v)
			bad = bad || err != nil
		case "xs:decimal":
			_, err := strconv.ParseFloat(v, 64)
			bad = bad || err != nil
		case "ISO8601_DATETIME_PATTERN":
			bad = bad || !xsdDateTime.MatchString(v)
		}
		if bad {
			problems = append(problems, fmt.Sprintf("%s: attribute %s=%q missing or not a %s", path, a, v, typ))
		}
	}
	for k := range required {
		if len(n.children(k)) == 0 {
			problems = append(problems, fmt.Sprintf("%s: required element <%s> missing", path, k))
		}
	}
	for _, c := range n.Children {
		d, ok := kids[c.XMLName.Local]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: element <%s> not in the schema", path, c.XMLName.Local))
			continue
		}
		problems = append(problems, x.checkAgainst(path+"/"+c.XMLName.Local, d, c)...)
	}
	return problems
}

func attrNames(n xmlNode) []string {
	var out []string
	for _, a := range n.Attrs {
		out = append(out, a.Name.Local)
	}
	return out
}

// TestDiffJUnit: diff's JUnit XML meets the schema's requirements, and a
// case fails for a change of a --fail-on class only.
func TestDiffJUnit(t *testing.T) {
	xsd := readXSD(t, filepath.Join("..", "report", "testdata", "junit.xsd"))
	dir := t.TempDir()
	a := demoFile(t, dir, "a.json", demoServer{label: "alpha", tools: []string{"request", "retired"}})
	b := demoFile(t, dir, "b.json", demoServer{label: "alpha", tools: []string{"request"}}, demoServer{label: "beta", tools: []string{"request"}})
	code, out, errb := runDiffed(t, a, b, "--policy", "lionagi-legacy-update", "--format", "junit")
	if code != exitFound {
		t.Fatalf("diff --format junit: exit %d, want %d\n%s", code, exitFound, errb)
	}
	var root xmlNode
	if err := xml.Unmarshal([]byte(out), &root); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if problems := xsd.check("testsuites", root); len(problems) > 0 {
		t.Errorf("JUnit XML does not meet the schema:\n%s\n%s", strings.Join(problems, "\n"), out)
	}
	failed := map[string]string{}
	for _, s := range root.children("testsuite") {
		for _, c := range s.children("testcase") {
			if f := c.children("failure"); len(f) > 0 {
				failed[c.attr("classname")+" "+c.attr("name")] = f[0].attr("type")
			}
		}
	}
	want := map[string]string{"alpha retired": "removed", "alpha request": "displaced"}
	if len(failed) != len(want) || failed["alpha retired"] != want["alpha retired"] || failed["alpha request"] != want["alpha request"] {
		t.Errorf("failed cases = %v, want %v\n%s", failed, want, out)
	}
}
