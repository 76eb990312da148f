package config

import (
	"fmt"
	"unicode/utf8"

	"github.com/mcplens/mcplens/model"
)

// maxLabelBytes bounds a server label. Labels become part of registered
// names (mcp__label__tool) that providers cap at 64 characters; a label
// far longer is a mistake or an attack, never a name.
const maxLabelBytes = 256

// labelProblem says why label cannot name a server, or returns "". A label
// is shown in every view and report and may end up in registered names, so
// it must be text a person can read: not empty, not huge, and free of
// control, bidi and invisible characters (which could redraw the terminal,
// or make two labels read alike).
func labelProblem(label string) string {
	switch {
	case label == "":
		return "empty server label"
	case len(label) > maxLabelBytes:
		n := 64
		for n > 0 && !utf8.RuneStart(label[n]) {
			n--
		}
		start := label[:n]
		return fmt.Sprintf(`server label "%s..." is %d bytes long; a label has at most %d`,
			model.Sanitize(start), len(label), maxLabelBytes)
	case model.Suspicious(label):
		return fmt.Sprintf(`server label "%s" holds control, bidi or invisible characters (shown escaped); rename the server`,
			model.Sanitize(label))
	}
	return ""
}
