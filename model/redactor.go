package model

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Redactor masks one config's secrets wherever they turn up in text: in a
// server's error or stderr, in a frame that echoes them, in a report. It
// knows the exact strings the config holds as secrets (NewRedactor), so it
// masks them whatever surrounds them, it masks the secrets known by their
// shape (MaskTokens), and credential syntax (RedactText) for the secrets
// it was never told about. Prose is left
// alone: "give a token in the config's headers" stays as written.
//
// The nil *Redactor knows no values and masks credential syntax only.
type Redactor struct {
	// values are the secrets, longest first, so that a secret holding
	// another is masked whole.
	values []string
	// learned counts the values With added.
	learned int
}

// Secrets shorter than MinSecret bytes are not looked for: "true", "dev"
// or "1234" would mask every such word of every frame (and leave JSON
// that is no longer JSON). Those shorter than anywhereSecret are masked
// only as whole words ("hunter2" in "PASSWORD=hunter2", not in
// "hunter22").
const (
	MinSecret      = 6
	anywhereSecret = 8
)

// Bounds on what a Redactor learns from traffic (With): a value longer
// than maxLearnedLen is not looked for, and past maxLearned values no
// more are learned.
const (
	maxLearnedLen = 4 << 10
	maxLearned    = 256
)

// NewRedactor returns the redactor of the given secret values: each is
// masked exactly as given and in its URL-escaped forms. Values shorter
// than MinSecret bytes are not looked for.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	r.values = r.add(secrets)
	return r
}

// With returns a redactor that masks r's values and the given ones,
// learned from traffic (a header's value that a body may echo): at most
// maxLearned of them and of maxLearnedLen bytes each. It returns r itself
// when it learns nothing new; r is not changed, so that a redactor can be
// shared while another goroutine learns.
func (r *Redactor) With(secrets ...string) *Redactor {
	if r == nil {
		r = &Redactor{}
	}
	var fresh []string
	for _, s := range secrets {
		if len(s) >= MinSecret && len(s) <= maxLearnedLen && !slices.Contains(r.values, s) && !slices.Contains(fresh, s) {
			fresh = append(fresh, s)
		}
	}
	if len(fresh) == 0 || r.learned >= maxLearned {
		return r
	}
	fresh = fresh[:min(len(fresh), maxLearned-r.learned)]
	return &Redactor{values: r.add(fresh), learned: r.learned + len(fresh)}
}

// add returns r's values with those of secrets, in every form, longest
// first.
func (r *Redactor) add(secrets []string) []string {
	vs := slices.Clone(r.values)
	for _, s := range secrets {
		for _, form := range []string{s, url.QueryEscape(s), url.PathEscape(s)} {
			if len(form) >= MinSecret && !slices.Contains(vs, form) {
				vs = append(vs, form)
			}
		}
	}
	slices.SortStableFunc(vs, func(a, b string) int { return len(b) - len(a) })
	return vs
}

// Longest returns the length of the longest secret r masks: text cut to
// n bytes for display is masked first when cut to n+Longest, so that no
// secret is shown in part at the cut.
func (r *Redactor) Longest() int {
	if r == nil || len(r.values) == 0 {
		return 0
	}
	return len(r.values[0])
}

// Values returns s with every secret r was given masked, and the secrets
// known by their shape (MaskTokens), and nothing else: for text that is
// shown or written as it came (frames, descriptions, results, history,
// recordings).
func (r *Redactor) Values(s string) string {
	if r != nil {
		for _, v := range r.values {
			s = maskValue(s, v)
		}
	}
	return MaskTokens(s)
}

// Text returns s with r's secrets and credential syntax masked: for
// messages (errors, stderr, notes, findings) that may quote a config.
func (r *Redactor) Text(s string) string {
	return RedactText(r.Values(s))
}

// maskValue masks each occurrence of v in s; a short v only where it
// stands as a word of its own.
func maskValue(s, v string) string {
	if !strings.Contains(s, v) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, v)
		if i < 0 {
			break
		}
		end := i + len(v)
		if len(v) < anywhereSecret && (i > 0 && wordByte(s[i-1]) || end < len(s) && wordByte(s[end])) {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(Masked)
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

func wordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// ArgSecrets returns the exact strings RedactArgs masks in args: flag
// values, NAME=VALUE values, credentials, the secrets of URLs.
func ArgSecrets(args []string) []string {
	var out []string
	for i, red := range RedactArgs(args) {
		a := args[i]
		if red == a {
			continue
		}
		if gaps, ok := maskedGaps(a, red); ok {
			out = append(out, gaps...)
			continue
		}
		// The mask could not be lined up with the argument (a URL is
		// written back escaped): the URL's secrets, and the whole argument.
		for _, w := range strings.FieldsFunc(a, func(r rune) bool { return r == '=' || unicode.IsSpace(r) }) {
			out = append(out, URLSecrets(w)...)
		}
		out = append(out, a)
	}
	return out
}

// maskedGaps lines up red, a redacted form of a, with a: the pieces of red
// between its masks are found in a in order, and what lies between them in
// a is returned.
func maskedGaps(a, red string) ([]string, bool) {
	pieces := strings.Split(red, Masked)
	if !strings.HasPrefix(a, pieces[0]) {
		return nil, false
	}
	rest := a[len(pieces[0]):]
	var gaps []string
	for k, p := range pieces[1:] {
		var i int
		if k == len(pieces)-2 {
			if !strings.HasSuffix(rest, p) {
				return nil, false
			}
			i = len(rest) - len(p)
		} else if i = strings.Index(rest, p); i < 0 || p == "" {
			return nil, false
		}
		if i > 0 {
			gaps = append(gaps, rest[:i])
		}
		rest = rest[i+len(p):]
	}
	return gaps, true
}

// URLSecrets returns the parts of a URL that RedactURL masks, as written
// and unescaped: user information, query values, fragment. Text that is
// not a URL with a host has none.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil
	}
	var out []string
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		} else {
			out = append(out, u.User.Username())
		}
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		if _, v, ok := strings.Cut(kv, "="); ok && v != "" {
			out = append(out, v)
			if uv, err := url.QueryUnescape(v); err == nil && uv != v {
				out = append(out, uv)
			}
		}
	}
	if u.Fragment != "" {
		out = append(out, u.Fragment)
	}
	return out
}

// LooksSecret reports whether a value whose name says nothing looks like
// a credential all the same: one long word of letters and digits, not a
// path, not a URL.
func LooksSecret(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v[:1], "/.~") || strings.Contains(v, "://") {
		return false
	}
	letters, digits := false, false
	for _, r := range v {
		switch {
		case unicode.IsSpace(r):
			return false
		case '0' <= r && r <= '9':
			digits = true
		case unicode.IsLetter(r):
			letters = true
		}
	}
	return letters && digits
}

// Credential syntax, as RedactText finds it.

// assignment is NAME=VALUE in text (token=abc, API_KEY=sk-1): the value
// runs to a space, quote, '&', ',' or ';'.
var assignment = regexp.MustCompile(`([A-Za-z0-9_.-]+)=([^\s"'&,;]+)`)

// quotedMember is "NAME": "VALUE" as JSON writes it.
var quotedMember = regexp.MustCompile(`"([A-Za-z0-9_.-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// redactAssignments masks the value of every NAME=VALUE and "NAME":
// "VALUE" whose name says it is a secret, unless the value is a variable
// ($TOKEN, ${env:TOKEN}) that names the secret.
func redactAssignments(s string) string {
	if strings.Contains(s, "=") {
		s = assignment.ReplaceAllStringFunc(s, func(m string) string {
			name, value, _ := strings.Cut(m, "=")
			if !SecretName(name) || value == Masked || strings.HasPrefix(value, "$") {
				return m
			}
			return name + "=" + Masked
		})
	}
	if strings.Contains(s, `":`) {
		s = quotedMember.ReplaceAllStringFunc(s, func(m string) string {
			sub := quotedMember.FindStringSubmatch(m)
			if !SecretName(sub[1]) || sub[2] == "" || sub[2] == Masked || strings.HasPrefix(sub[2], "$") {
				return m
			}
			return strings.TrimSuffix(m, `"`+sub[2]+`"`) + `"` + Masked + `"`
		})
	}
	return s
}

// credentialAt reports whether words[i] stands where credential syntax
// puts a secret: after a secret flag (--api-key X), after Bearer or Basic
// (Bearer X), after a secret header's name (Authorization: X, X-Api-Key:
// X) or after the scheme that follows one (Authorization: token X). Where
// prose could say the same words ("the server wants authorization: give
// it a token"), only a word that looks like a credential counts.
func credentialAt(words []string, i int) bool {
	w := trimWord(words[i])
	if i == 0 || w == "" || w == Masked || isAuthScheme(w) || strings.HasPrefix(w, "$") {
		return false // a variable ($TOKEN, ${env:TOKEN}) names a secret, it holds none
	}
	prev := trimWord(words[i-1])
	switch {
	case strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && SecretName(prev):
		return true
	case isAuthScheme(prev):
		if strings.EqualFold(prev, "token") && (i < 2 || !headerName(words[i-2])) {
			return false // "a token X" is prose; "Authorization: token X" is not
		}
		return credentialLike(w)
	case headerName(words[i-1]):
		// X-Api-Key: is a header; "api_key": quoted is prose naming one
		// (a JSON member's value is in quotes, see redactAssignments).
		name := strings.TrimSuffix(strings.TrimLeft(words[i-1], wordStarts), ":")
		return !strings.ContainsAny(name, `"'`) && strings.ContainsAny(name, "-_") || credentialLike(w)
	}
	return false
}

// headerName reports whether w is "Name:" for a name (letters, digits,
// '-' and '_') that says its value is a secret.
func headerName(w string) bool {
	name, ok := strings.CutSuffix(strings.TrimLeft(w, wordStarts), ":")
	name = strings.Trim(name, `"'`)
	return ok && name != "" && !strings.ContainsFunc(name, notInName) && SecretName(name)
}

// notInName reports whether r cannot be part of a header or key name.
func notInName(r rune) bool {
	return r >= utf8.RuneSelf || r != '-' && !wordByte(byte(r))
}

// credentialLike reports whether w (quotes and punctuation aside) could
// be a credential rather than a word of prose: anything but a word of
// letters, lower-case but for the first, or a very long one.
func credentialLike(w string) bool {
	if len(w) >= 20 {
		return true
	}
	for i, r := range w {
		if (r < 'a' || r > 'z') && (i > 0 || r < 'A' || r > 'Z') {
			return true
		}
	}
	return false
}

// trimWord strips the quotes and brackets around w and the punctuation
// that ends a clause.
func trimWord(w string) string {
	return strings.TrimLeft(strings.TrimRight(w, wordEnds), wordStarts)
}

const wordStarts, wordEnds = `"'(<[`, `.,;:)"'>]`

// maskWord masks w, keeping the quotes and punctuation around it.
func maskWord(w string) string {
	core := strings.TrimRight(w, wordEnds)
	start := len(core) - len(strings.TrimLeft(core, wordStarts))
	return w[:start] + Masked + w[len(core):]
}
