package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcplens/mcplens/model"
)

// Formats lists the formats Write knows, the default first.
func Formats() []string { return []string{"text", "json", "markdown", "sarif", "junit"} }

// Write renders the report in format: "text", "json", "markdown" ("md"
// is taken for markdown), "sarif" (SARIF 2.1.0) or "junit" (JUnit XML).
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case "text", "":
		return writeText(w, r)
	case "json":
		return writeJSON(w, r)
	case "markdown", "md":
		return writeMarkdown(w, r)
	case "sarif":
		return writeSARIF(w, r)
	case "junit":
		return writeJUnit(w, r)
	}
	return fmt.Errorf("writing report: unknown format %q (want %s)", format, strings.Join(Formats(), ", "))
}

// KnownFormat reports whether Write knows format.
func KnownFormat(format string) bool {
	switch format {
	case "text", "json", "markdown", "md", "sarif", "junit":
		return true
	}
	return false
}

// writeJSON writes the report as indented JSON. encoding/json escapes
// controls, invalid UTF-8 and the line separators; the characters that hide
// text (bidi controls, zero-width characters, C1 controls) are escaped here
// as well, so that the file shows them when printed.
func writeJSON(w io.Writer, r *Report) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	_, err := w.Write(escapeHidden(buf.Bytes()))
	return err
}

// escapeHidden rewrites, in encoded JSON, every character model.Sanitize
// would escape as a \u escape. Outside strings JSON has none of them, so
// the document stays valid and means the same.
func escapeHidden(b []byte) []byte {
	if !model.Suspicious(string(b)) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r < utf8.RuneSelf || !model.Suspicious(string(b[:size])):
			out = append(out, b[:size]...)
		case r > 0xffff: // beyond U+FFFF, JSON escapes a surrogate pair
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		b = b[size:]
	}
	return out
}
