package oauth

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/mcplens/mcplens/model"
)

// The steps of the flow a *StepError names.
const (
	StepDiscovery     = "discovery"
	StepRegistration  = "registration"
	StepAuthorization = "authorization"
	StepToken         = "token"
	StepRefresh       = "refresh"
)

// A StepError says which step of the flow failed, at which URL, and what
// the server answered (its OAuth error and description, or the start of
// its body), all sanitized.
type StepError struct {
	Step string
	URL  string
	// Said is what the server answered, "" when it answered nothing.
	Said string
	Err  error
}

func (e *StepError) Error() string {
	var b strings.Builder
	b.WriteString("oauth " + e.Step)
	if e.URL != "" {
		b.WriteString(" at " + model.Sanitize(model.RedactURL(e.URL)))
	}
	b.WriteString(" failed: " + model.Sanitize(e.Err.Error()))
	if e.Said != "" && !strings.Contains(e.Err.Error(), e.Said) {
		b.WriteString("; the server said: " + e.Said)
	}
	return b.String()
}

func (e *StepError) Unwrap() error { return e.Err }

// A NeedsLoginError is a server that asked for authorization when no
// login may run: no token is stored, the stored one could not be
// refreshed, or the server wants more scopes than it grants.
type NeedsLoginError struct {
	Config, Server string
	// Why is what made the stored token unusable, "" when there is none.
	Why string
}

func (e *NeedsLoginError) Error() string {
	msg := "needs login: run mcplens login " + shellWord(e.Config) + " " + shellWord(e.Server)
	if e.Why != "" {
		msg += " (" + e.Why + ")"
	}
	return msg
}

// NeedsLogin marks the error for the loader, which knows no oauth.
func (e *NeedsLoginError) NeedsLogin() bool { return true }

// shellWord quotes s for a shell when it needs it.
func shellWord(s string) string {
	s = model.Sanitize(s)
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '~' || r == ':' || r == '@' || r == '+' || r == ',' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// said reads what an OAuth endpoint answered: its error and
// error_description (RFC 6749 5.2, RFC 7591 3.2.2), or the start of its body.
func said(body []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		if e.Description != "" {
			return clip(e.Error + ": " + e.Description)
		}
		return clip(e.Error)
	}
	return clip(strings.TrimSpace(string(body)))
}

// clip sanitizes s and cuts it to a line's length.
func clip(s string) string {
	const max = 300
	s = model.Sanitize(s)
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never half a character
		}
		s = s[:cut] + "…"
	}
	return s
}
