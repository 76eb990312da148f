package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// TestOfflineFormatsWellFormed: check of recordings whose calls include one
// that contradicts its route, in each format: sarif and json are one JSON
// document, junit one XML document, markdown has no server text outside
// its escaping (the observed calls are the text format's), and every
// format fails the check on the contradicting call.
func TestOfflineFormatsWellFormed(t *testing.T) {
	bin := build(t, "..")
	dir := t.TempDir()
	alpha := recordDemo(t, bin, dir, "alpha", "claude-code", "2.1.0", "request")
	beta := recordDemo(t, bin, dir, "beta", "claude-code", "2.1.0", "request")
	for _, format := range []string{"text", "json", "markdown", "sarif", "junit"} {
		var out, errb bytes.Buffer
		if code := runOffline([]string{alpha, beta, "--policy", "lionagi-legacy", "--format", format}, false, nil, &out, &errb); code != exitFound {
			t.Errorf("%s: exit %d, want %d (a contradicting call); stderr %s", format, code, exitFound, errb.String())
		}
		observed := strings.Contains(out.String(), "Observed calls")
		switch format {
		case "text":
			if !observed || !strings.Contains(out.String(), "✗ contradicts") {
				t.Errorf("text lacks the observed calls:\n%s", out.String())
			}
		case "json", "sarif":
			dec := json.NewDecoder(&out)
			var doc any
			if err := dec.Decode(&doc); err != nil {
				t.Errorf("%s: %v", format, err)
			} else if _, err := dec.Token(); err != io.EOF {
				t.Errorf("%s: more after the document (%v): %.200s", format, err, out.String())
			}
		case "junit":
			dec := xml.NewDecoder(&out)
			var doc struct {
				XMLName xml.Name `xml:"testsuites"`
			}
			if err := dec.Decode(&doc); err != nil {
				t.Errorf("junit: %v", err)
			}
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if cd, ok := tok.(xml.CharData); err != nil || !ok || len(bytes.TrimSpace(cd)) > 0 {
					t.Errorf("junit: more after the document: %v %q", err, tok)
					break
				}
			}
		case "markdown":
			if observed {
				t.Errorf("markdown carries the text format's observed calls, unescaped:\n%s", out.String())
			}
		}
	}
}
