// JUnit XML: check's report as test results, for CI systems that show test
// reports.

package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcplens/mcplens/model"
)

// The JUnit document, in the shape of the Apache Ant JUnit schema (the one
// most CI systems read): testsuites, one testsuite per server, one
// testcase for the server itself and one per advertised tool.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Package    string          `xml:"package,attr"`
	ID         int             `xml:"id,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Hostname   string          `xml:"hostname,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr,omitempty"`
	Time       string          `xml:"time,attr"`
	Properties junitProperties `xml:"properties"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out"`
	SystemErr  string          `xml:"system-err"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkipped `xml:"skipped"`
}

// junitSkipped marks a test case that did not apply, with why.
type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitServerCase names the test case of a server itself.
const junitServerCase = "(server)"

// writeJUnit writes the check report as JUnit XML. A test case fails when
// an error-level finding is on it (a server's own, or a tool's); its
// failure names the first and lists them all. Warnings are listed in the
// suite's system-out.
func writeJUnit(w io.Writer, r *Report) error {
	doc := junitSuites{}
	stamp := junitStamp()
	props := junitProperties{Property: []junitProperty{
		{Name: "config", Value: model.Sanitize(r.Config)},
		{Name: "policy", Value: r.Policy},
		{Name: "providers", Value: strings.Join(r.Providers, ",")},
	}}
	if r.Client != "" {
		props.Property = append(props.Property, junitProperty{Name: "client", Value: model.Sanitize(r.Client)})
	}
	suite := func(name string) junitSuite {
		return junitSuite{Name: name, Package: "mcplens." + r.Policy, ID: len(doc.Suites), Timestamp: stamp,
			Hostname: "localhost", Time: "0", Properties: props}
	}
	for _, s := range r.Servers {
		label := model.Sanitize(s.Label)
		st := suite(label)
		st.Cases = append(st.Cases, junitCaseOf(r, label, junitServerCase, s.Label, "", &st))
		for _, t := range s.Tools {
			name := model.Sanitize(t.Wire)
			if t.Wire == "" {
				name = fmt.Sprintf("(row %d)", t.Index)
			}
			st.Cases = append(st.Cases, junitCaseOf(r, label, name, s.Label, t.Wire, &st))
		}
		st.Tests = len(st.Cases)
		doc.Suites = append(doc.Suites, st)
	}
	// What is on no server: the config file as a whole.
	if st := suite("config"); hasFindingOn(r, "") {
		st.Cases = append(st.Cases, junitCaseOf(r, "config", "(file)", "", "", &st))
		st.Tests = 1
		doc.Suites = append(doc.Suites, st)
	}
	return encodeJUnit(w, doc)
}

// encodeJUnit writes doc as XML.
func encodeJUnit(w io.Writer, doc junitSuites) error {
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit: %w", err)
	}
	buf.WriteString("\n")
	// encoding/xml escapes every apostrophe; attributes are quoted with
	// '"', so an apostrophe needs no escape anywhere and reads better bare.
	_, err := w.Write(bytes.ReplaceAll(buf.Bytes(), []byte("&#39;"), []byte("'")))
	return err
}

// junitStamp is the time a JUnit suite ran, in the schema's form.
func junitStamp() string { return time.Now().UTC().Format("2006-01-02T15:04:05") }

// junitCaseOf is the test case of a server's row (tool "" for the server
// itself), counting its failure into st and its warnings into st's output.
func junitCaseOf(r *Report, class, name, server, tool string, st *junitSuite) junitCase {
	c := junitCase{Name: name, ClassName: class, Time: "0"}
	var errs []string
	for _, f := range r.Findings {
		if f.Server != server || f.Tool != tool {
			continue
		}
		line := fmt.Sprintf("%s %s: %s", f.Severity, f.Kind, model.Sanitize(f.Evidence))
		switch f.Severity {
		case Error:
			errs = append(errs, line)
		case Warning:
			st.SystemOut += name + ": " + line + "\n"
		}
	}
	if len(errs) > 0 {
		st.Failures++
		c.Failure = &junitFailure{Message: errs[0], Type: firstKind(errs[0]), Text: strings.Join(errs, "\n")}
	}
	return c
}

// firstKind is the finding kind of a failure line: "error tool-lost: ...".
func firstKind(line string) string {
	_, rest, _ := strings.Cut(line, " ")
	kind, _, _ := strings.Cut(rest, ":")
	return kind
}

func hasFindingOn(r *Report, server string) bool {
	for _, f := range r.Findings {
		if f.Server == server && f.Severity > Info {
			return true
		}
	}
	return false
}
