package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/atotto/clipboard"

	tea "charm.land/bubbletea/v2"
)

// Copying and saving happen only on a key press (y, o), never because of
// what a server sent, and what is copied has the config's secrets masked.

// copiedMsg says a copy was made: through the terminal (OSC 52) always,
// and through the system clipboard unless err says why not.
type copiedMsg struct {
	what string
	size int
	err  error
}

// copyText copies text, named what in the note that follows: OSC 52 asks
// the terminal (it works over ssh and in tmux with set-clipboard on), and
// the system clipboard is written as well where there is one.
func copyText(c common, what, text string) tea.Cmd {
	text = c.redact.Values(text)
	return tea.Batch(tea.SetClipboard(text), func() tea.Msg {
		return copiedMsg{what: what, size: len(text), err: clipboard.WriteAll(text)}
	})
}

// note says what was copied, and how.
func (m copiedMsg) note() string {
	how := "terminal and system clipboard"
	if m.err != nil {
		how = "terminal clipboard (OSC 52); no system clipboard"
	}
	return fmt.Sprintf("copied %s (%s) to the %s", m.what, humanSize(int64(m.size)), how)
}

// savedMsg says where o wrote the items' bytes, or why it could not.
type savedMsg struct {
	paths []string
	err   error
}

// saveItems writes each item's bytes to a new file in the working
// directory, named after base and the item's type (mcplens-media.png,
// then mcplens-media-2.png …), readable by the user alone. An existing
// file or link is never written through: the name is taken and the next
// one tried.
func saveItems(base string, items []saveable) tea.Cmd {
	items = slices.Clone(items)
	base = "mcplens-" + safeName(base)
	return func() tea.Msg {
		var msg savedMsg
		for _, it := range items {
			path, err := saveOne(base, extension(it.mime), it.data)
			if err != nil {
				msg.err = err
				break
			}
			msg.paths = append(msg.paths, path)
		}
		return msg
	}
}

// saveOne writes data to the first free name of base and ext.
func saveOne(base, ext string, data []byte) (string, error) {
	for i := 1; i < 1000; i++ {
		path := base + ext
		if i > 1 {
			path = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return path, err
	}
	return "", errors.New("saving: " + base + "-999" + ext + " and every name before it are taken")
}

// note says where the bytes went.
func (m savedMsg) note() string {
	saved := "saved to " + strings.Join(m.paths, ", ") + " (readable by you alone)"
	switch {
	case m.err != nil && len(m.paths) > 0:
		return saved + "; the rest not saved: " + m.err.Error()
	case m.err != nil:
		return "not saved: " + m.err.Error()
	}
	return saved
}

// safeName keeps the letters, digits, '-' and '_' of a name a server chose,
// so that it names a file in the working directory and nothing else.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		return "item"
	}
	return s
}

// extensions are the file extensions o gives the types it knows; any
// other type, whatever a server wrote, is saved as ".bin". A server's
// mimeType never makes a file name: only this table does.
var extensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
	"image/svg+xml": ".svg", "image/bmp": ".bmp", "image/avif": ".avif", "image/tiff": ".tiff",
	"image/x-icon": ".ico", "image/vnd.microsoft.icon": ".ico",
	"audio/wav": ".wav", "audio/x-wav": ".wav", "audio/wave": ".wav", "audio/mpeg": ".mp3",
	"audio/ogg": ".ogg", "audio/flac": ".flac", "audio/mp4": ".m4a", "audio/webm": ".weba",
	"video/mp4": ".mp4", "video/webm": ".webm", "video/ogg": ".ogv",
	"application/pdf": ".pdf", "application/json": ".json", "application/xml": ".xml",
	"application/zip": ".zip", "application/gzip": ".gz", "application/x-tar": ".tar",
	"application/yaml": ".yaml", "application/javascript": ".js", "application/octet-stream": ".bin",
	"text/plain": ".txt", "text/html": ".html", "text/csv": ".csv", "text/markdown": ".md",
	"text/xml": ".xml", "text/css": ".css", "text/javascript": ".js", "text/yaml": ".yaml",
}

// maxMIMEType bounds the type looked up: no known one is longer.
const maxMIMEType = 100

// extension is the file extension of a MIME type ("image/png; x=y" and
// "IMAGE/PNG" are .png), ".bin" for a type the table does not know.
func extension(mimeType string) string {
	if len(mimeType) > maxMIMEType {
		return ".bin"
	}
	essence, _, _ := strings.Cut(mimeType, ";")
	if ext, ok := extensions[strings.ToLower(strings.TrimSpace(essence))]; ok {
		return ext
	}
	return ".bin"
}
