package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// DecodeLimit is the deepest nesting encoding/json decodes.
const DecodeLimit = 10000

// Depth returns how deeply raw nests, or an error when it is not one valid
// JSON value. It does not recurse, so any depth is safe to measure, and a
// value nested beyond DecodeLimit, which json.Valid refuses, is measured
// and checked too. Once raw is known to be valid, its brackets outside
// strings are counted byte by byte: walking it token by token took most of
// the findings view's time on a large surface.
func Depth(raw []byte) (int, error) {
	if json.Valid(raw) {
		_, deepest, _, _ := walkBrackets(raw, 0, false)
		return deepest, nil
	}
	_, deepest, balanced, closed := walkBrackets(raw, 0, false)
	if !balanced || !closed || deepest <= DecodeLimit || !validDeep(raw) {
		return 0, errors.New("invalid JSON")
	}
	return deepest, nil
}

// validDeep reports whether raw is one valid JSON value, at any depth,
// reading it token by token: json.Decoder.Token, unlike json.Valid, sets
// no limit to nesting.
func validDeep(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	for depth := 0; ; {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			_, err := dec.Token()
			return err == io.EOF
		}
	}
}

// walkBrackets walks raw from i, counting brackets outside strings. With
// untilClosed it stops after the bracket that closes the one at raw[i],
// returning the end; otherwise it walks all of raw. It reports the deepest
// level, whether the brackets balance and whether every string ends.
func walkBrackets(raw []byte, i int, untilClosed bool) (end, deepest int, balanced, closed bool) {
	depth := 0
	for j := i; j < len(raw); j++ {
		switch raw[j] {
		case '"':
			end := stringEnd(raw, j)
			if end < 0 {
				return len(raw), deepest, depth == 0, false
			}
			j = end - 1
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
			switch {
			case depth < 0:
				return j + 1, deepest, false, true
			case depth == 0 && untilClosed:
				return j + 1, deepest, true, true
			}
		}
	}
	return len(raw), deepest, depth == 0, true
}

// stringEnd returns the end of the string whose opening quote is at b[i]:
// the index after its closing quote, or -1 when it does not end. It looks
// for quotes with bytes.IndexByte, which reads many bytes at a time, and
// tells a closing quote by the even number of backslashes before it.
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		escapes := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j + 1
		}
	}
}

// Plain reports whether every string in the JSON text raw, once decoded, is
// printable ASCII, tab or a line break: raw is printable ASCII and
// whitespace, and escapes only quotes, slashes and \n, \r, \t (no \u, \b
// or \f). Such text need not be tokenized to look for characters that hide
// or act.
func Plain(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '\\':
			i++
			if i == len(raw) || !bytes.ContainsRune([]byte(`"\\/nrt`), rune(raw[i])) {
				return false
			}
		case c >= 0x20 && c < 0x7f, c == '\t', c == '\n', c == '\r':
		default:
			return false
		}
	}
	return true
}
