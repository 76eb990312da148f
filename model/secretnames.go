package model

import (
	"net/textproto"
	"strings"
	"unicode"
)

// A secret is known by its name before its value is seen: a config's env
// and headers, a flag, a query parameter, a cookie. The rules below are
// the only place mcplens decides that a name marks a secret; the tap, the
// config's redaction, the interface and the reports all ask them.

// secretSegments are the words that, as a whole segment of a name (split
// at '-', '_', '.', spaces and camelCase humps), mark its value as a
// secret: DB_PASS, X-Api-Key, GITHUB_TOKEN, clientSecret. As segments, not
// substrings: KEYBOARD_LAYOUT, PASSTHROUGH, AUTHOR and SIGNAL hold none.
var secretSegments = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true,
	"secret": true, "secrets": true, "token": true, "tokens": true, "key": true, "keys": true,
	"credential": true, "credentials": true, "cred": true, "creds": true,
	"auth": true, "authorization": true, "cookie": true, "cookies": true, "bearer": true,
	"signature": true, "sig": true, "jwt": true, "webhook": true, "sessionid": true,
}

// secretEndings mark a segment written as one word with what precedes
// it: APIKEY, PGPASSWORD, accesstoken, clientsecret.
var secretEndings = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
	"secretkey", "privatekey", "credential", "credentials"}

// SecretName reports whether name (a flag, variable, header, cookie or
// query parameter name) says its value is a secret: API_KEY, --token,
// x-api-key, client_secret, Authorization, DB_PASS, SESSION_ID. A
// segment "session" counts only followed by "id" or alone (SESSION_ID,
// Mcp-Session-Id, session; not XDG_SESSION_TYPE or DESKTOP_SESSION).
func SecretName(name string) bool {
	segs := nameSegments(strings.TrimLeft(name, "-"))
	for i, seg := range segs {
		switch {
		case secretSegments[seg]:
			return true
		case seg == "session" && (len(segs) == 1 || i+1 < len(segs) && segs[i+1] == "id"):
			return true
		}
		for _, end := range secretEndings {
			if strings.HasSuffix(seg, end) {
				return true
			}
		}
	}
	return false
}

// nameSegments splits name at every byte that is not a letter or digit
// and at camelCase humps (apiKey, APIKey: "api", "key"), lower-cased.
func nameSegments(name string) []string {
	var segs []string
	rs := []rune(name)
	start := -1
	for i, r := range rs {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		hump := start >= 0 && i > start && unicode.IsUpper(r) &&
			(unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))
		if start >= 0 && (!word || hump) {
			segs = append(segs, strings.ToLower(string(rs[start:i])))
			start = -1
		}
		if word && start < 0 {
			start = i
		}
	}
	if start >= 0 {
		segs = append(segs, strings.ToLower(string(rs[start:])))
	}
	return segs
}

// SecretEnv reports whether the value of environment variable name is a
// secret: its name says so (SecretName; except PWD, the shell's working
// folder), or the value looks like a credential (LooksSecret) or holds
// one by its shape (MaskTokens: a provider's token, a webhook URL,
// user:password@, Bearer X). The tap, a config's redaction and the
// expansion of ${env:VAR} all decide by it.
func SecretEnv(name, value string) bool {
	if value == "" {
		return false
	}
	return name != "PWD" && SecretName(name) || LooksSecret(value) || MaskTokens(value) != value
}

// plainHeaders are the headers HTTP and MCP define whose values carry no
// credential; any other header a client sends was put there by its config
// (X-Custom-Creds, X-Tenant) and is masked whatever its name.
var plainHeaders = map[string]bool{
	"Accept": true, "Accept-Encoding": true, "Accept-Language": true, "Cache-Control": true, "Connection": true,
	"Content-Encoding": true, "Content-Length": true, "Content-Type": true, "Date": true, "Etag": true,
	"Host": true, "Keep-Alive": true, "Last-Event-Id": true, "Mcp-Protocol-Version": true, "Pragma": true,
	"Server": true, "Transfer-Encoding": true, "User-Agent": true, "Vary": true, "Te": true, "Trailer": true,
	"Upgrade": true, "Origin": true, "Referer": true, "Www-Authenticate": true, "Location": true,
	"Content-Location": true, "Retry-After": true, "Link": true, "Allow": true, "Expires": true,
	"Last-Modified": true, "Age": true, "Via": true, "X-Accel-Buffering": true, "Access-Control-Allow-Origin": true,
	"Access-Control-Allow-Headers": true, "Access-Control-Allow-Methods": true, "Access-Control-Expose-Headers": true,
}

// MaskHeader returns the value of header name as mcplens writes it (in a
// recording, a HAR, a view): the value of a header HTTP or MCP defines
// with its secret shapes masked (MaskTokens, the secrets of a URL), any
// other header's value masked whole.
func MaskHeader(name, value string) string {
	name = textproto.CanonicalMIMEHeaderKey(name)
	if !plainHeaders[name] || SecretName(name) {
		return MaskValue(value)
	}
	if strings.Contains(value, "://") && !strings.ContainsAny(value, " \t") {
		return RedactURL(value)
	}
	return MaskTokens(value)
}

// HeaderSecrets returns the secrets a header's value holds, to be masked
// wherever they turn up again (a body that echoes them): the whole value
// of a header MaskHeader masks, the credential after its scheme (Bearer
// X), and each cookie's value (Cookie: a=X; b=Y; Set-Cookie: a=X; Path=/).
func HeaderSecrets(name, value string) []string {
	name = textproto.CanonicalMIMEHeaderKey(name)
	if value == "" || MaskHeader(name, value) != Masked {
		return nil
	}
	out := []string{value}
	if scheme, cred, ok := strings.Cut(value, " "); ok && !strings.ContainsAny(scheme, "=:;") {
		out = append(out, strings.TrimSpace(cred))
	}
	if name == "Cookie" || name == "Set-Cookie" {
		for _, c := range strings.Split(value, ";") {
			if _, v, ok := strings.Cut(c, "="); ok {
				out = append(out, strings.Trim(strings.TrimSpace(v), `"`))
			}
			if name == "Set-Cookie" {
				break // the rest are attributes (Path=/)
			}
		}
	}
	return out
}
