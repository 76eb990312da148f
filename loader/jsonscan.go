package loader

import (
	"bytes"
	"encoding/json"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// A Call reads the id and method of every line that crosses the wire while
// it runs, and the result of its answer, by the scans of internal/jsonx
// rather than by decoding each whole line (see jsonx.Members).

// jsonMember returns the raw value of the top-level member key of the JSON
// object obj, as decoding obj into a struct with a field tagged key would
// see it. found says whether there is one; ok is false when the scan cannot
// answer as encoding/json would (jsonx.Members), and the caller then
// decodes obj itself. obj must be valid JSON.
func jsonMember(obj []byte, key string) (value []byte, found, ok bool) {
	var v [1][]byte
	ok = jsonx.Members(obj, []string{key}, v[:])
	return v[0], v[0] != nil, ok
}

// jsonMembers is jsonMember for several keys in one pass over obj: values[k]
// is set to the value of keys[k], left nil when there is none.
func jsonMembers(obj []byte, keys []string, values [][]byte) bool {
	return jsonx.Members(obj, keys, values)
}

// jsonElements returns the elements of the JSON array arr as slices of it.
// ok is false when arr is not an array. arr must be valid JSON.
func jsonElements(arr []byte) (elems []json.RawMessage, ok bool) {
	return jsonx.Elements(arr)
}

// plainID returns the canonical form of an id that needs no decoding: an
// integer of at most 6 digits (canonicalID formats a float64 with %v,
// which writes 1e+06 from a million on), or a string without escapes or
// whitespace. ok is false for any other id.
func plainID(raw []byte) (id string, ok bool) {
	switch {
	case len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"':
		if bytes.ContainsAny(raw[1:len(raw)-1], "\\\" \t\r\n") {
			return "", false
		}
		return string(raw), true
	case len(raw) == 0:
		return "", false
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 6 || (digits[0] == '0' && len(digits) > 1) {
		return "", false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return "n:" + string(raw), true
}
