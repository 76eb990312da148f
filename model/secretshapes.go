package model

import (
	"math"
	"regexp"
	"strings"
)

// Some secrets are recognised by their shape rather than by the name they
// are given: a provider's token prefix (ghp_, sk-proj-, xoxb-, AKIA...), a
// user:password before an '@', a long random word. These are the shapes a
// command line or a URL carries without a secret-sounding flag in front.

// tokenPattern matches the API tokens of well-known providers by their
// prefix, followed by enough token characters that a word merely starting
// the same ("sk-learn", "ghp_x") is not one.
var tokenPattern = regexp.MustCompile(
	`\b(?:` +
		`gh[pousr]_|github_pat_|` + // GitHub
		`sk-(?:proj-|ant-|live-|test-)?|rk_(?:live|test)_|pk_live_|` + // OpenAI, Anthropic, Stripe
		`xox[abposr]-|xapp-|` + // Slack
		`glpat-|gldt-|` + // GitLab
		`hf_|npm_|pypi-|AIza|ya29\.|` + // Hugging Face, npm, PyPI, Google
		`eyJ` + // a JSON Web Token: base64 of `{"`
		`)[A-Za-z0-9_\-.]{16,}` +
		`|\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`) // AWS access key IDs

// tokenPrefixes holds, for every token tokenPattern matches, a string the
// token contains: a text holding none of them holds no token, and is not
// given to the expression (which costs a fraction of a microsecond a byte
// even where it matches nothing).
var tokenPrefixes = []string{"gh", "github_pat_", "sk-", "rk_", "pk_live_", "xox", "xapp-", "glpat-", "gldt-",
	"hf_", "npm_", "pypi-", "AIza", "ya29.", "eyJ", "AKIA", "ASIA"}

// mayHoldToken reports whether s contains one of tokenPrefixes.
func mayHoldToken(s string) bool {
	for _, p := range tokenPrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// userinfoPattern matches the user:password@ of a connection string that
// url.Parse cannot read (user:pass@tcp(h:3306)/db, or a password holding
// '/' or '#').
var userinfoPattern = regexp.MustCompile(`([A-Za-z0-9._%+\-]+):([^\s:@/]+)@`)

// MaskTokens returns s with every secret known by its shape masked: a
// well-known API token (ghp_..., github_pat_..., sk-..., sk-proj-...,
// xoxb-..., AKIA...), the password of a user:password@, the key of a
// webhook URL (MaskWebhooks) and the credential after Bearer or Basic
// (MaskBearer).
func MaskTokens(s string) string {
	if s == "" {
		return s
	}
	return MaskBearer(MaskWebhooks(maskTokenPieces(s)))
}

// maskTokenPieces masks the provider tokens and user:password@ of s, fast
// on a large text: the expressions, which cost some 0.3 µs a byte, see
// only the pieces of s that can hold a secret: between whitespace and
// slashes (which no token and no user:password@ holds), a piece with an
// '@' whole, and of the others, the parts between quotes (which no token
// holds) long enough to hold a token. Piece by piece or whole, the masks
// are the same, since each piece starts and ends at a word boundary.
func maskTokenPieces(s string) string {
	var b []byte // nil until a piece changes
	done := 0    // s[:done] is in b
	mask := func(start, end int) {
		if piece := s[start:end]; len(piece) >= shapeMin || strings.IndexByte(piece, '@') >= 0 {
			if masked := maskTokenPiece(piece); masked != piece {
				b = append(append(b, s[done:start]...), masked...)
				done = end
			}
		}
	}
	pieces(s, 0, len(s), " \t\r\n/", func(start, end int) {
		if strings.IndexByte(s[start:end], '@') >= 0 {
			mask(start, end)
			return
		}
		pieces(s, start, end, `"`, mask)
	})
	if b == nil {
		return s
	}
	return string(append(b, s[done:]...))
}

// shapeMin is the length of the shortest token tokenPattern matches: a
// provider's prefix and 16 token characters ("hf_" and 16).
const shapeMin = 19

// maskTokenPiece masks the tokens and user:password@ of one piece.
func maskTokenPiece(s string) string {
	if mayHoldToken(s) {
		s = tokenPattern.ReplaceAllLiteralString(s, Masked)
	}
	if strings.Contains(s, "@") {
		s = userinfoPattern.ReplaceAllString(s, "${1}:"+Masked+"@")
	}
	return s
}

// pieces calls f with the bounds of each piece of s[start:end] between
// the bytes in seps.
func pieces(s string, start, end int, seps string, f func(start, end int)) {
	for start < end {
		i := strings.IndexAny(s[start:end], seps)
		if i < 0 {
			i = end - start
		}
		f(start, start+i)
		start += i + 1
	}
}

// minRandomLen is the length from which a word of letters and digits is
// judged by its entropy: shorter ones are names, versions and flags.
const minRandomLen = 20

// minRandomBits is the entropy per character, in bits, from which a long
// word reads as random: a token drawn from 62 characters has some 4.5 over
// 20 characters; hyphenated English words and dates stay under 3.5.
const minRandomBits = 3.5

// LooksRandom reports whether word reads as a generated secret: at least
// minRandomLen characters of letters, digits and -_+=, mixing two of lower
// case, upper case and digits, and high entropy. Such a word in a URL path (a webhook
// or server URL carrying its key) or alone on a command line is masked.
func LooksRandom(word string) bool {
	if len(word) < minRandomLen {
		return false
	}
	var lower, upper, digit bool
	counts := map[rune]int{}
	for _, r := range word {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune("-_+=", r):
		default:
			return false
		}
		counts[r]++
	}
	if classes := btoi(lower) + btoi(upper) + btoi(digit); classes < 2 {
		return false
	}
	var bits float64
	n := float64(len(word))
	for _, c := range counts {
		p := float64(c) / n
		bits -= p * math.Log2(p)
	}
	return bits >= minRandomBits
}

// maskPathSegments masks the segments of a URL path that hold a token or
// read as random (LooksRandom): many hosted servers and webhooks put their
// key in the path.
func maskPathSegments(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if LooksRandom(seg) {
			segs[i] = Masked
		} else {
			segs[i] = MaskTokens(seg)
		}
	}
	return strings.Join(segs, "/")
}

// maskShapes masks the secrets recognised by shape in one command-line
// word: a well-known token anywhere in it, or the whole word when it reads
// as random.
func maskShapes(word string) string {
	if LooksRandom(word) {
		return Masked
	}
	return MaskTokens(word)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
