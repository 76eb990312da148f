package loader

import (
	"bytes"
	"encoding/json"
)

// A Call reads the id and method of every line that crosses the wire while
// it runs, and the result of its answer. Decoding each whole line with
// encoding/json to read one member was most of what the tap added to a
// call's round trip, so the members are found here by scanning the top
// level of the object, without decoding or copying the rest.

// jsonMember returns the raw value of the top-level member key of the JSON
// object obj, as decoding obj into a struct with a field tagged key would
// see it (the last such member). found says whether there is one. ok is
// false when the scan cannot answer as encoding/json would (obj is not an
// object, or a member name is escaped or differs from key only in case,
// which encoding/json would match): the caller then decodes obj itself.
// obj must be valid JSON.
func jsonMember(obj []byte, key string) (value []byte, found, ok bool) {
	var v [1][]byte
	ok = jsonMembers(obj, []string{key}, v[:])
	return v[0], v[0] != nil, ok
}

// jsonMembers is jsonMember for several keys in one pass over obj: values[k]
// is set to the value of keys[k], left nil when there is none.
func jsonMembers(obj []byte, keys []string, values [][]byte) bool {
	i := scanSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = scanSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		end := scanValueEnd(obj, i)
		name := obj[i+1 : max(i+1, end-1)]
		if bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		k := -1
		for j, key := range keys {
			if string(name) == key {
				k = j
			} else if bytes.EqualFold(name, []byte(key)) {
				return false
			}
		}
		i = scanSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		start := scanSpace(obj, i+1)
		end = scanValueEnd(obj, start)
		if k >= 0 {
			values[k] = obj[start:end:end]
		}
		i = scanSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = scanSpace(obj, i+1)
		}
	}
	return true
}

// jsonElements returns the elements of the JSON array arr as slices of it.
// ok is false when arr is not an array. arr must be valid JSON.
func jsonElements(arr []byte) (elems []json.RawMessage, ok bool) {
	i := scanSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil, false
	}
	elems = []json.RawMessage{}
	for i = scanSpace(arr, i+1); i < len(arr) && arr[i] != ']'; {
		end := scanValueEnd(arr, i)
		elems = append(elems, arr[i:end:end])
		if i = scanSpace(arr, end); i < len(arr) && arr[i] == ',' {
			i = scanSpace(arr, i+1)
		}
	}
	return elems, true
}

func scanSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanValueEnd returns the end of the JSON value that starts at b[i].
func scanValueEnd(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(b)
	case '{', '[':
		depth, inString := 0, false
		for j := i; j < len(b); j++ {
			c := b[j]
			switch {
			case inString && c == '\\':
				j++
			case inString:
				inString = c != '"'
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' &&
		b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
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
