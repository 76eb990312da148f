package ui

import (
	"fmt"
	"strings"

	"github.com/mcplens/mcplens/loader"
)

// What a read or a prompts/get answered, as the resources & prompts view
// shows it.

// showContent turns an answer into the lines the panel shows.
func showContent(c common, msg offerShownMsg) *offerContent {
	oc := &offerContent{title: c.quote(msg.title)}
	if msg.err != nil {
		oc.err = msg.err.Error()
	}
	text := func(prefix, s string) {
		for _, l := range strings.Split(s, "\n") {
			oc.lines = append(oc.lines, prefix+c.quote(l))
		}
	}
	piece := func(ct loader.Content) {
		switch {
		case ct.BlobErr != "":
			oc.lines = append(oc.lines, "  "+c.text(fmt.Sprintf("[%s %s: %s]", ct.Type, ct.MIMEType, ct.BlobErr)))
		case len(ct.Blob) > 0:
			oc.lines = append(oc.lines, "  "+c.quote(fmt.Sprintf("[%s %s · %d bytes]", ct.Type, dash(ct.MIMEType), len(ct.Blob))))
		default:
			text("  ", ct.Text)
		}
	}
	if r := msg.read; r != nil {
		for _, ct := range r.Contents {
			oc.lines = append(oc.lines, c.styles.Section.Render(c.quote(ct.URI+" · "+dash(ct.MIMEType))))
			piece(ct)
		}
	}
	if pr := msg.prompt; pr != nil && msg.err == nil {
		if pr.Description != "" {
			text("", pr.Description)
		}
		for _, m := range pr.Messages {
			head := m.Role + " · " + m.Content.Type
			if m.Content.URI != "" {
				head += " · " + m.Content.URI
			}
			oc.lines = append(oc.lines, c.styles.Section.Render(c.quote(head)))
			piece(m.Content)
		}
	}
	return oc
}

// contentBox draws title and lines from offset in a plain box width by
// height: the one place the view renders long content.
func contentBox(c common, title string, lines []string, offset, width, height int) string {
	out := make([]string, 0, height)
	out = append(out, c.styles.PaneTitle.Render(truncate(title, width, "…")))
	offset = max(0, min(offset, len(lines)-1))
	for i := offset; i < len(lines) && len(out) < height; i++ {
		out = append(out, truncate(lines[i], width, "…"))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
