package jsonx

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Decoding each whole frame or schema with encoding/json to read one member
// was most of what the tap added to a call's round trip and most of the
// findings view's time, so members are found here by scanning the top
// level of the object, without decoding or copying the rest.

// Members finds the values of several top-level members of the object obj
// in one pass: values[k] is set to the raw value of the member named
// keys[k] (the last one, as decoding into a struct would see it), left nil
// when there is none. It reports false when the scan cannot answer as
// encoding/json would: obj is not an object, or a member name is escaped or
// differs from a key only in case, which encoding/json would match. The
// caller then decodes obj itself.
func Members(obj []byte, keys []string, values [][]byte) bool {
	ok := true
	isObject := eachMember(obj, func(quoted, value []byte) bool {
		name := quoted[1 : len(quoted)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			ok = false
			return false
		}
		for k, key := range keys {
			if string(name) == key {
				values[k] = value
			} else if bytes.EqualFold(name, []byte(key)) {
				ok = false
				return false
			}
		}
		return true
	})
	return isObject && ok
}

// MemberFold returns the raw value of the member key of the object obj as
// decoding obj into a struct with a field tagged key would find it: the last
// member whose name, decoded, equals key ignoring case. It is nil when
// there is none or obj is not an object.
func MemberFold(obj []byte, key string) []byte {
	var found []byte
	eachMember(obj, func(quoted, value []byte) bool {
		if strings.EqualFold(name(quoted), key) {
			found = value
		}
		return true
	})
	return found
}

// A Field is one member of an object: its decoded name and raw value.
type Field struct {
	Name  string
	Value []byte
}

// Fields returns the members of the object obj in document order, which
// encoding/json's maps do not keep. A name given more than once keeps its
// first position and, as decoders do, its last value. ok is false when obj
// is not an object.
func Fields(obj []byte) (fields []Field, ok bool) {
	at := make(map[string]int)
	ok = eachMember(obj, func(quoted, value []byte) bool {
		n := name(quoted)
		if i, dup := at[n]; dup {
			fields[i].Value = value
			return true
		}
		at[n] = len(fields)
		fields = append(fields, Field{n, value})
		return true
	})
	return fields, ok
}

// Elements returns the elements of the array arr as slices of it. ok is
// false when arr is not an array.
func Elements(arr []byte) (elems []json.RawMessage, ok bool) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil, false
	}
	elems = []json.RawMessage{}
	for i = skipSpace(arr, i+1); i < len(arr) && arr[i] != ']'; {
		end := ValueEnd(arr, i)
		elems = append(elems, arr[i:end:end])
		if i = skipSpace(arr, end); i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
	return elems, true
}

// eachMember calls visit with the quoted name and the raw value of each
// top-level member of obj in order, until visit returns false. It reports
// whether obj is an object.
func eachMember(obj []byte, visit func(quoted, value []byte) bool) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		end := ValueEnd(obj, i)
		if end < i+2 {
			return false
		}
		quoted := obj[i:end]
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		start := skipSpace(obj, i+1)
		end = ValueEnd(obj, start)
		if !visit(quoted, obj[start:end:end]) {
			return true
		}
		i = skipSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return true
}

// name decodes a quoted member name, as encoding/json would: escapes
// resolved, invalid UTF-8 replaced.
func name(quoted []byte) string {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// ValueEnd returns the end of the JSON value that starts at b[i].
func ValueEnd(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		if end := stringEnd(b, i); end >= 0 {
			return end
		}
		return len(b)
	case '{', '[':
		end, _, _, _ := walkBrackets(b, i, true)
		return end
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' &&
		b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}

// String decodes a JSON string; anything else, or nothing, is "" (a
// non-string is left to the raw row).
func String(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return ""
	}
	// raw is valid JSON: without an escape, and in valid UTF-8 (which
	// decoding would repair), its text is the string.
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}
