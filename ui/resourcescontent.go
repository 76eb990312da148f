package ui

import (
	"encoding/json"
	"strings"
)

// What a read or a prompts/get answered opens in the reader, rendered as a
// call's result is (content.go): text as text, a blob as its type and size
// (o saves it), y copies the answer as sent.

// answerReader is the reader of what server answered msg.
func answerReader(e *env, server string, msg offerShownMsg) *readerView {
	s := e.c.styles
	title := s.PaneTitle.Render(e.c.quote(server)) + " " + e.c.quote(msg.title)
	_, saves, clip := answerLines(e.c, msg)
	r := newReader(e, title, func() []string {
		lines, _, _ := answerLines(e.c, msg)
		return lines
	})
	saveWith(r, server+"-"+msg.name, saves)
	if clip != nil {
		r.ClipName, r.Clip = "the answer", string(clip)
	}
	return r
}

// answerLines renders an answer: the error first, if any, then a read's
// contents or a prompt's description and messages; and the bytes o saves
// and the result y copies.
func answerLines(c common, msg offerShownMsg) (lines []string, saves []saveable, result json.RawMessage) {
	s := c.styles
	if msg.err != nil {
		lines = append(lines, s.ErrorText.Render("error: "+c.text(msg.err.Error())))
	}
	if r := msg.read; r != nil {
		raws := make([]json.RawMessage, len(r.Contents))
		for i, ct := range r.Contents {
			raws[i] = ct.Raw
		}
		l, items := c.contentLines(raws, true)
		return append(lines, l...), items, r.Result
	}
	if pr := msg.prompt; pr != nil && msg.err == nil {
		if pr.Description != "" {
			lines = append(lines, c.textLines(pr.Description)...)
		}
		for _, m := range pr.Messages {
			l, items := c.contentLines([]json.RawMessage{m.Content.Raw}, false)
			lines = append(lines, "", s.Section.Render(c.quote(m.Role+" · "+m.Content.Type)))
			lines = append(lines, l...)
			saves = append(saves, items...)
		}
		return lines, saves, pr.Result
	}
	return lines, nil, nil
}

// contentBox draws title and lines in a plain box width by height: a
// form, or the wait for the server's answer.
func contentBox(c common, title string, lines []string, width, height int) string {
	out := make([]string, 0, height)
	out = append(out, c.styles.PaneTitle.Render(truncate(title, width, "…")))
	for i := 0; i < len(lines) && len(out) < height; i++ {
		out = append(out, truncate(lines[i], width, "…"))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
