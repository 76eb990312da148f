package model

import "strings"

// Two more shapes carry a secret without a name in front: the URL of a
// webhook, whose path is its key (anyone who holds it can post), and the
// credential after an authorization scheme (Bearer X, Basic X).

// webhookPaths are where the key of a well-known webhook URL starts:
// everything after one of them, to the end of the URL, is the key.
var webhookPaths = []string{
	"hooks.slack.com/services/", "hooks.slack.com/workflows/", "hooks.slack.com/triggers/",
	"discord.com/api/webhooks/", "discordapp.com/api/webhooks/",
	".webhook.office.com/webhookb2/", "outlook.office.com/webhook/", "outlook.office365.com/webhook/",
	"hooks.zapier.com/hooks/catch/", "chat.googleapis.com/v1/spaces/", "api.telegram.org/bot",
}

// urlEnds are the bytes that end a URL in text: whitespace, quotes,
// angle brackets and a JSON escape.
const urlEnds = " \t\r\n\"'<>\\`"

// MaskWebhooks returns s with the key of every well-known webhook URL in
// it masked: https://hooks.slack.com/services/T000/B000/XXXX becomes
// https://hooks.slack.com/services/****. A text holding no webhook's host
// and path is returned as it is, after one search per host.
func MaskWebhooks(s string) string {
	for _, p := range webhookPaths {
		if !strings.Contains(s, p) {
			continue
		}
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, p)
			if i < 0 {
				break
			}
			keyAt := i + len(p)
			end := strings.IndexAny(rest[keyAt:], urlEnds)
			if end < 0 {
				end = len(rest) - keyAt
			}
			b.WriteString(rest[:keyAt])
			if end > 0 {
				b.WriteString(Masked)
			}
			rest = rest[keyAt+end:]
		}
		b.WriteString(rest)
		s = b.String()
	}
	return s
}

// minBearer is the length from which the word after Bearer or Basic is
// taken for a credential ("Bearer token" in prose is not one).
const minBearer = 8

// MaskBearer returns s with the credential after every Bearer or Basic
// (capitalized, lower or upper case) masked: RFC 6750's b64token or RFC
// 7617's base64, minBearer characters or more, wherever it stands (a
// header, a log line, a body that echoes it). An auth-param (Bearer
// resource_metadata="...") is not a credential and stays. Only the
// occurrences of the schemes' names are looked at.
func MaskBearer(s string) string {
	var b strings.Builder
	done := 0
	for from := 0; ; {
		i, w := nextBearer(s, from)
		if i < 0 {
			break
		}
		from = i + len(w)
		if i > 0 && wordByte(s[i-1]) {
			continue
		}
		start := from
		for start < len(s) && (s[start] == ' ' || s[start] == '\t') {
			start++
		}
		end := start
		for end < len(s) && credentialByte(s[end]) {
			end++
		}
		for end < len(s) && s[end] == '=' {
			end++
		}
		if start == from || end-start < minBearer || end < len(s) && s[end] == '"' && s[end-1] == '=' {
			continue // no space, a word of prose, or an auth-param (realm="...")
		}
		b.WriteString(s[done:start])
		b.WriteString(Masked)
		done, from = end, end
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// credentialByte reports whether c may be part of a b64token.
func credentialByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", c) >= 0
}

// bearerWords are the spellings of the schemes MaskBearer looks for.
var bearerWords = []string{"Bearer", "bearer", "BEARER", "Basic", "basic", "BASIC"}

// nextBearer returns where the first of bearerWords at or after from is
// in s, and which; -1 if none is.
func nextBearer(s string, from int) (int, string) {
	at, word := -1, ""
	for _, w := range bearerWords {
		end := len(s)
		if at >= 0 {
			end = min(len(s), at+len(w)) // only an earlier one matters
		}
		if i := strings.Index(s[from:end], w); i >= 0 && (at < 0 || from+i < at) {
			at, word = from+i, w
		}
	}
	return at, word
}
