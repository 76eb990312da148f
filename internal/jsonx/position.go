package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Position converts a byte offset of data to a 1-based line and character
// column, for a person to find the place in an editor.
func Position(data []byte, off int64) (line, col int) {
	o := min(max(int(off), 0), len(data))
	before := data[:o]
	line = 1 + bytes.Count(before, []byte("\n"))
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(data[lineStart:o])
}

// Problem words why data is not the JSON value it was read as (err, from
// encoding/json) with where: "line 3, column 9: invalid character ','
// looking for beginning of object key string". An error without an offset
// is worded as it is.
func Problem(data []byte, err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		off := syntax.Offset - 1 // past the byte at fault
		if syntax.Error() == "unexpected end of JSON input" {
			off = int64(len(data)) // the end came too soon: point past it
		}
		line, col := Position(data, off)
		return fmt.Sprintf("line %d, column %d: %v", line, col, syntax)
	case errors.As(err, &typ):
		line, col := Position(data, typ.Offset-1)
		return fmt.Sprintf("line %d, column %d: %s where %s was wanted", line, col, typ.Value, typ.Type)
	}
	return err.Error()
}
