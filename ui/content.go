package ui

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads the header of each format registered
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/mcplens/mcplens/internal/jsonx"

	"github.com/mcplens/mcplens/ui/kit"
)

// A call's result is shown as a user expects to read it: text as text,
// JSON pretty-printed and coloured, an image or audio as what it is (its
// bytes can be saved, never drawn), a resource as its URI, name, type and
// size. Every string a server sent is masked and sanitized first.

// A saveable is the bytes of an image, audio or blob a result carried,
// which the reader's o writes to a file.
type saveable struct {
	mime string
	data []byte
}

// contentItem is one entry of a result's content, as the spec defines it.
type contentItem struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	Data        string          `json:"data"`
	MIMEType    string          `json:"mimeType"`
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Size        *int64          `json:"size"`
	Resource    *resourceInside `json:"resource"`
}

// resourceInside is an embedded resource's contents.
type resourceInside struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     string `json:"text"`
	Blob     string `json:"blob"`
}

// resultContent renders the content of a tools/call result object: its
// lines (styled, not wrapped) and the bytes o can save.
func (c common) resultContent(result json.RawMessage) ([]string, []saveable) {
	var r struct {
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return c.jsonLines(result), nil
	}
	return c.contentLines(r.Content, false)
}

// contentLines renders content items, or, when resource is set, the
// contents of a resources/read result, each as an embedded resource is.
func (c common) contentLines(items []json.RawMessage, resource bool) ([]string, []saveable) {
	var lines []string
	var saves []saveable
	for _, raw := range items {
		var it contentItem
		err := json.Unmarshal(raw, &it)
		if resource {
			var res resourceInside
			err = json.Unmarshal(raw, &res)
			it = contentItem{Type: "resource", Resource: &res}
		}
		if err != nil {
			lines = append(lines, c.jsonLines(raw)...)
			continue
		}
		l, save := c.itemLines(it, raw)
		lines = append(lines, l...)
		if save != nil {
			saves = append(saves, *save)
		}
	}
	return lines, saves
}

// itemLines renders one content item, and the bytes o saves of it, if any.
func (c common) itemLines(it contentItem, raw json.RawMessage) ([]string, *saveable) {
	s := c.styles
	switch it.Type {
	case "text":
		return c.textLines(it.Text), nil
	case "image", "audio":
		data, err := base64.StdEncoding.DecodeString(it.Data)
		if err != nil {
			return []string{s.WarnText.Render(fmt.Sprintf("%s %s: its data is not base64 (%d characters)", it.Type, c.quote(it.MIMEType), len(it.Data)))}, nil
		}
		head := c.quote(it.MIMEType) + " · " + humanSize(int64(len(data)))
		if it.Type == "image" {
			if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
				head += fmt.Sprintf(" · %d×%d", cfg.Width, cfg.Height)
			} else {
				head += " · not a readable image"
			}
		}
		return []string{s.Section.Render(it.Type+" ") + head + s.Muted.Render(saveHint)}, &saveable{mime: it.MIMEType, data: data}
	case "resource_link":
		return c.resourceLines("resource link", it.URI, it.Name, it.Title, it.MIMEType, it.Description, it.Size), nil
	case "resource":
		if it.Resource == nil {
			break
		}
		res := it.Resource
		if res.Blob != "" {
			data, err := base64.StdEncoding.DecodeString(res.Blob)
			if err == nil {
				size := int64(len(data))
				l := c.resourceLines("resource", res.URI, "", "", res.MIMEType, "", &size)
				l[0] += s.Muted.Render(saveHint)
				return l, &saveable{mime: res.MIMEType, data: data}
			}
			l := c.resourceLines("resource", res.URI, "", "", res.MIMEType, "", nil)
			return append(l, s.WarnText.Render(fmt.Sprintf("  its blob is not base64 (%d characters)", len(res.Blob)))), nil
		}
		size := int64(len(res.Text))
		return append(c.resourceLines("resource", res.URI, "", "", res.MIMEType, "", &size), c.textLines(res.Text)...), nil
	}
	return c.jsonLines(raw), nil
}

// saveHint follows an item o saves.
const saveHint = "   o saves it"

// resourceLines describe a resource: kind and URI, then name, title, type,
// size and description when given.
func (c common) resourceLines(kind, uri, name, title, mimeType, desc string, size *int64) []string {
	s := c.styles
	lines := []string{s.Section.Render(kind+" ") + s.Out.Render(c.quote(uri))}
	var facts []string
	for _, f := range []string{name, title, mimeType} {
		if f != "" {
			facts = append(facts, c.quote(f))
		}
	}
	if size != nil {
		facts = append(facts, humanSize(*size))
	}
	if len(facts) > 0 {
		lines = append(lines, "  "+strings.Join(facts, " · "))
	}
	if desc != "" {
		lines = append(lines, "  "+s.Muted.Render(c.quote(desc)))
	}
	return lines
}

// textLines is text as text: one line per line it holds, tabs expanded,
// each masked and sanitized.
func (c common) textLines(text string) []string {
	text = c.redact.Values(strings.ReplaceAll(text, "\r\n", "\n"))
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = c.quote(strings.ReplaceAll(l, "\t", "    "))
	}
	return lines
}

// jsonLines is JSON pretty-printed with syntax colour; what is not JSON
// is shown as text.
func (c common) jsonLines(raw []byte) []string {
	pretty, err := jsonx.Indent(bytes.TrimSpace(raw))
	if err != nil {
		return c.textLines(string(raw))
	}
	lines := strings.Split(c.redact.Values(string(pretty)), "\n")
	for i, l := range lines {
		lines[i] = c.colourJSON(c.quote(l))
	}
	return lines
}

// colourJSON colours one line of indented JSON: keys, strings, numbers,
// literals and punctuation, each in its style. The line is sanitized
// already: the colours only wrap its pieces.
func (c common) colourJSON(line string) string {
	p := c.styles.painters()
	var sb strings.Builder
	for i := 0; i < len(line); {
		switch ch := line[i]; {
		case ch == '"':
			j := i + 1
			for j < len(line) && line[j] != '"' {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			if strings.HasPrefix(strings.TrimLeft(line[j:], " "), ":") {
				sb.WriteString(c.styles.Out.Render(line[i:j]))
			} else {
				sb.WriteString(p.ok.Render(line[i:j]))
			}
			i = j
		case ch == '-' || ch >= '0' && ch <= '9' || ch == 't' || ch == 'f' || ch == 'n':
			j := i
			for j < len(line) && !strings.ContainsRune(",]} ", rune(line[j])) {
				j++
			}
			sb.WriteString(p.renamed.Render(line[i:j]))
			i = j
		case strings.ContainsRune("{}[],:", rune(ch)):
			sb.WriteString(p.muted.Render(line[i : i+1]))
			i++
		default:
			sb.WriteByte(ch)
			i++
		}
	}
	return sb.String()
}

// humanSize spells n bytes as a reader reads it: 812 B, 1.9 KB, 3.2 MB.
func humanSize(n int64) string { return kit.Size(n) }
