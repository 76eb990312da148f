package relay

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Bounds on the names FileName makes: a label longer than plainMax is
// named by its first readableMax bytes and its hash.
const (
	plainMax    = 64
	readableMax = 40
)

// FileName returns label as a file name that is the label's alone: the
// label itself when it is plain (lower-case letters, digits, '.', '-' and
// '_', starting with neither '.' nor '-', at most plainMax bytes), else
// its readable part (readable) then '~' and the first 12 hex digits of
// the SHA-256 of the exact label. No plain name holds a '~', so "a/b",
// "a_b" and "a b" have three names, and so do "A" and "a" on a file system
// that folds case. A name never holds a path separator, a control byte or
// a leading dot.
func FileName(label string) string {
	if plain(label) {
		return label
	}
	sum := sha256.Sum256([]byte(label))
	return readable(label, readableMax) + "~" + hex.EncodeToString(sum[:6])
}

// plain reports whether label is its own file name.
func plain(label string) bool {
	if label == "" || len(label) > plainMax || label[0] == '.' || label[0] == '-' {
		return false
	}
	return !strings.ContainsFunc(label, func(r rune) bool {
		return !(r == '.' || r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z')
	})
}

// readable returns label's letters, digits, '.', '-' and '_', any other
// character as '_', cut to max bytes; a leading '.' or '-' becomes '_'.
func readable(label string, max int) string {
	name := []byte(strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return r
		}
		return '_'
	}, label))
	if len(name) > max {
		name = name[:max]
	}
	if len(name) == 0 || name[0] == '.' || name[0] == '-' {
		name = append([]byte{'_'}, name...)
	}
	return string(name)
}
