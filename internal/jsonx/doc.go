// Package jsonx owns mcplens's reading of raw JSON bytes without decoding
// them: the members of an object and the elements of an array found by a
// scan of the top level, how deeply a value nests, whether its strings can
// be passed over unread, and the RFC 8785 canonical form lock hashes are
// taken of. It is the one copy of these scans; model and loader both use it.
// It imports only the standard library and
// github.com/go-json-experiment/json/jsontext, never another mcplens package.
//
// The scans read a valid JSON value (json.Valid, or Depth without an
// error) and answer as decoding it with encoding/json would, which their
// fuzz targets check; on anything else their answer means nothing.
//
//	var v [2][]byte
//	if jsonx.Members(line, []string{"id", "method"}, v[:]) {
//		fmt.Printf("%s %s\n", v[0], v[1]) // 7 "tools/call"
//	}
//	t := jsonx.MemberFold(schema, "type") // "object", as a struct field tagged type decodes it
package jsonx
