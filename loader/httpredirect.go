package loader

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/mcplens/mcplens/model"
)

// maxRedirects is how many redirects one request follows, as Go's
// default.
const maxRedirects = 10

// A redirectGuard is an HTTP client's CheckRedirect. On a redirect to
// another origin (scheme, host or port) it drops every header the config
// sets, which Go would carry there (it drops only Authorization and
// Cookie, and only for another host), and the Referer, which would carry
// the URL's secrets; it keeps a note of the first such redirect for the
// server line.
type redirectGuard struct {
	headers []string // the names of the configured headers

	mu    sync.Mutex
	first string
}

func (g *redirectGuard) check(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	from := via[0].URL
	if sameOrigin(from, req.URL) {
		return nil
	}
	for _, h := range g.headers {
		req.Header.Del(h)
	}
	req.Header.Del("Referer")
	note := fmt.Sprintf("redirected from %s to %s", model.RedactURL(from.String()), model.RedactURL(req.URL.String()))
	if len(g.headers) > 0 {
		note += "; configured headers not sent to " + req.URL.Host
	}
	g.mu.Lock()
	if g.first == "" {
		g.first = note
	}
	g.mu.Unlock()
	return nil
}

// note returns the note of the first cross-origin redirect, or "".
func (g *redirectGuard) note() string {
	if g == nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.first
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// joinNote adds note to a Ready event's note.
func joinNote(note, more string) string {
	switch {
	case more == "":
		return note
	case note == "":
		return more
	}
	return note + "; " + more
}
