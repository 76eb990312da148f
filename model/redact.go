package model

import (
	"net/url"
	"strings"
)

// A config carries secrets: env values, header values, bearer tokens, API
// keys in arguments and tokens in URL queries. Whatever mcplens shows or
// writes (views, reports, lock files, golden files, logs) goes through the
// functions below first: a secret's name stays visible, its value never is.

// Masked is what a secret value is shown as.
const Masked = "****"

// MaskValue returns Masked for a non-empty value and "" for an empty one:
// whether a value is set is worth seeing, its length is not.
func MaskValue(v string) string {
	if v == "" {
		return ""
	}
	return Masked
}

// RedactHeader returns the value of header name as it may be shown: every
// header value is masked, since any of them can carry a credential under
// a name nobody predicted.
func RedactHeader(name, value string) string { return MaskValue(value) }

// RedactURL returns raw with its secrets masked: the password of its user
// information (the user too when it comes alone, as tokens often do), every
// query value, the fragment, and the path segments that hold a token or
// read as random (a key in a webhook's path), and the key of a well-known
// webhook (MaskWebhooks). Scheme, host, the rest of the path and query
// keys stay.
// Text that does not parse as a URL with a host is masked after its
// "scheme://", or else after its first '?', '#', '@' or space.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return redactUnparsed(raw)
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		} else {
			u.User = url.User("xxxxx")
		}
	}
	if u.RawQuery != "" {
		var parts []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, v, found := strings.Cut(kv, "=")
			if found {
				parts = append(parts, k+"="+MaskValue(v))
			} else {
				parts = append(parts, k)
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = "xxxxx", ""
	}
	if masked := maskPathSegments(u.Path); masked != u.Path {
		u.Path, u.RawPath = masked, ""
	}
	s := u.String()
	// url.URL escapes what it writes; the masks are written plain.
	return MaskWebhooks(strings.NewReplacer("xxxxx", Masked, "%2A%2A%2A%2A", Masked).Replace(s))
}

// redactUnparsed masks what may be secret in text that was meant as a URL
// but does not parse as one with a host: all of it after "scheme://", else
// all after the first '?', '#', '@' or space.
func redactUnparsed(raw string) string {
	if scheme, _, ok := strings.Cut(raw, "://"); ok && !strings.ContainsAny(scheme, " /?#@") {
		return scheme + "://" + Masked
	}
	if i := strings.IndexAny(raw, "?#@ "); i >= 0 {
		return raw[:i+1] + Masked
	}
	return raw
}

// RedactArgs returns a copy of a command's arguments with their secrets
// masked: the value of a flag whose name says it is a secret (--token X,
// --api-key=X), NAME=VALUE where NAME does, a bearer
// or basic credential (Bearer X), the secrets of URLs (RedactURL), and
// the secrets known by their shape (MaskTokens, LooksRandom).
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	maskNext := false
	for i, a := range args {
		switch {
		case maskNext:
			out[i] = MaskValue(a)
			maskNext = false
			continue
		case strings.HasPrefix(a, "-") && !strings.Contains(a, "="):
			out[i] = a
			maskNext = SecretName(a)
			continue
		}
		out[i] = redactWord(a)
	}
	return out
}

// redactWord masks the secrets in one argument or one value.
func redactWord(a string) string {
	if name, value, ok := strings.Cut(a, "="); ok && !strings.Contains(name, "://") {
		switch {
		case SecretName(name):
			return name + "=" + MaskValue(value)
		case strings.Contains(value, "://"):
			return name + "=" + RedactURL(value)
		case maskShapes(value) != value:
			return name + "=" + maskShapes(value)
		}
	}
	if scheme, cred, ok := strings.Cut(a, " "); ok {
		switch strings.ToLower(scheme) {
		case "bearer", "basic", "token":
			return scheme + " " + MaskValue(cred)
		}
	}
	// A header given as an argument: "Authorization: Bearer X".
	if name, value, ok := strings.Cut(a, ":"); ok && !strings.Contains(name, " ") && SecretName(name) &&
		!strings.HasPrefix(value, "//") {
		return name + ": " + MaskValue(strings.TrimSpace(value))
	}
	if strings.Contains(a, "://") {
		return RedactURL(a)
	}
	return maskShapes(a)
}

// RedactText masks the secrets in a message that may quote a config: the
// secrets of every URL in it (RedactURL) and credential syntax: the value
// of NAME=VALUE and of "NAME": "VALUE" when NAME says it is a secret, the
// word after a secret flag (--api-key X), after Bearer or Basic, and after
// a secret header's name (Authorization: X). Prose keeps its words: where
// a sentence could read the same ("give a token in the headers"), only a
// word that looks like a credential is masked (credentialAt).
func RedactText(s string) string {
	s = redactAssignments(s)
	words := strings.Split(s, " ")
	for i, w := range words {
		switch {
		case credentialAt(words, i):
			words[i] = maskWord(w)
		case strings.Contains(w, "://"):
			start := strings.IndexFunc(w, func(r rune) bool { return !strings.ContainsRune(`"'(<[`, r) })
			end := strings.LastIndexFunc(w, func(r rune) bool { return !strings.ContainsRune(`"')>],.;:`, r) }) + 1
			if start >= 0 && end > start {
				words[i] = w[:start] + RedactURL(w[start:end]) + w[end:]
			}
		}
	}
	return strings.Join(words, " ")
}

func isAuthScheme(w string) bool {
	switch strings.ToLower(strings.Trim(w, `"'`)) {
	case "bearer", "basic", "token":
		return true
	}
	return false
}
