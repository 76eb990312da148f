package surface

import (
	"strings"
	"unicode/utf8"

	"github.com/mcplens/mcplens/mcpsession"
	"github.com/mcplens/mcplens/model"
)

// Wrap is text from a server (its instructions) as it is shown: sanitized
// (model.Sanitize), its blanks and line breaks folded into single spaces,
// wrapped at width columns (counted in runes) and cut to at most lines
// lines, the last ending in "…" when text was left out. cut says the text
// was cut before (mcpsession.ServerFacts.Cut).
func Wrap(text string, cut bool, width, lines int) []string {
	words := strings.Fields(text)
	var (
		out  []string
		line strings.Builder
	)
	for _, w := range words {
		w = model.Sanitize(w)
		if line.Len() > 0 && utf8.RuneCountInString(line.String())+1+utf8.RuneCountInString(w) > width {
			out = append(out, line.String())
			line.Reset()
			if len(out) == lines {
				return ellipsis(out)
			}
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(w)
	}
	if line.Len() > 0 {
		out = append(out, line.String())
	}
	if cut && len(out) > 0 {
		return ellipsis(out)
	}
	return out
}

// ellipsis marks the last line of lines as followed by text left out.
func ellipsis(lines []string) []string {
	lines[len(lines)-1] += " …"
	return lines
}

// Facts are the lines that describe a server beyond its name, version and
// protocol: its title and website, its capabilities, its instructions
// wrapped at width and cut to instructionLines lines. Each line is a label
// ("" for the instructions' second line on) and a sanitized value; the
// caller masks secrets first.
func Facts(f mcpsession.ServerFacts, width, instructionLines int) [][2]string {
	var out [][2]string
	if f.Title != "" {
		out = append(out, [2]string{"title", model.Sanitize(f.Title)})
	}
	if f.Website != "" {
		out = append(out, [2]string{"website", model.Sanitize(f.Website)})
	}
	if len(f.Capabilities) > 0 {
		out = append(out, [2]string{"capabilities", model.Sanitize(strings.Join(f.Capabilities, ", "))})
	}
	if f.Settled != "" {
		out = append(out, [2]string{"protocol", model.Sanitize(f.Settled)})
	}
	if f.ToolsCache.Sent || strings.Contains(f.Settled, "via server/discover") {
		out = append(out, [2]string{"tools cache", f.ToolsCache.String()})
	}
	for i, l := range Wrap(f.Instructions, f.Cut, width, instructionLines) {
		label := ""
		if i == 0 {
			label = "instructions"
		}
		out = append(out, [2]string{label, l})
	}
	return out
}

// MaskFacts returns f with the config's secrets masked (red.Values) in
// what the server wrote.
func MaskFacts(f mcpsession.ServerFacts, red *model.Redactor) mcpsession.ServerFacts {
	if red.Longest() == 0 {
		return f
	}
	f.Title, f.Website, f.Instructions = red.Values(f.Title), red.Values(f.Website), red.Values(f.Instructions)
	return f
}
