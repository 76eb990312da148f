package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcplens/mcplens/internal/jsonx"
)

// maxDepth bounds the nesting of a schema or of arguments checked: deeper
// is refused before any recursive walk, so hostile nesting costs no stack.
const maxDepth = 128

// printer spells the validator's messages in English.
var printer = message.NewPrinter(language.English)

// A Problem is one way the arguments fail their schema: the JSON pointer
// of the value at fault ("" for the whole object) and what is wrong.
type Problem struct {
	Pointer string
	Message string
}

// String is the problem as one line: "/a/0: got string, want integer".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(root)"
	}
	return ptr + ": " + p.Message
}

// A SyntaxError is arguments that are not JSON: where (line and column,
// from 1) and what.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Syntax returns nil when text is one JSON value, else a *SyntaxError
// saying where it stops being one.
func Syntax(text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	var v json.RawMessage
	err := dec.Decode(&v)
	if err == nil {
		if _, extra := dec.Token(); extra == nil {
			return position(text, int(dec.InputOffset()), "unexpected data after the JSON value")
		}
		return nil
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return position(text, int(se.Offset), character(text, int(se.Offset), se.Error()))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return position(text, len(text), endOfInput)
	}
	return position(text, len(text), err.Error())
}

// character corrects msg, encoding/json's message for the byte before
// off, to name the whole character there when it is not ASCII.
func character(text []byte, off int, msg string) string {
	const prefix = "invalid character '"
	if off < 1 || off > len(text) || text[off-1] < utf8.RuneSelf || !strings.HasPrefix(msg, prefix) {
		return msg
	}
	r, _ := utf8.DecodeRune(text[off-1:])
	rest := msg[len(prefix):]
	if i := strings.Index(rest, "' "); i >= 0 {
		rest = rest[i:]
	}
	return prefix + string(r) + rest
}

// endOfInput is the message of arguments cut short.
const endOfInput = "unexpected end of the arguments"

// position is the *SyntaxError at byte offset off of text. A decoder's
// offset points past the byte at fault, so the column is that byte's.
func position(text []byte, off int, msg string) *SyntaxError {
	off = min(max(off, 0), len(text))
	before := text[:off]
	if off > 0 && off <= len(text) && msg != endOfInput {
		before = text[:off-1]
	}
	line := bytes.Count(before, []byte("\n")) + 1
	col := len([]rune(string(before[bytes.LastIndexByte(before, '\n')+1:]))) + 1
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

// Validate checks args (one JSON value, normally an object) against the
// input schema schema, in the draft its $schema names (2020-12 when it
// names none). It returns the problems found, ordered by pointer, or an
// error: a *SyntaxError for args that are not JSON, or why the schema
// could not be used (not JSON, too deep, not a schema, a reference outside
// it). An empty schema accepts anything.
func Validate(schema, args json.RawMessage) ([]Problem, error) {
	if err := Syntax(args); err != nil {
		return nil, err
	}
	if d, err := jsonx.Depth(args); err != nil || d > maxDepth {
		return []Problem{{Message: fmt.Sprintf("the arguments nest more than %d levels deep", maxDepth)}}, nil
	}
	sch, err := Compile(schema)
	if err != nil || sch == nil {
		return nil, err
	}
	return sch.Check(args)
}

// A Schema is an input schema compiled once, to check many arguments.
type Schema struct{ s *jsonschema.Schema }

// Compile compiles an input schema, or returns why it cannot be used. An
// empty schema compiles to nil, which checks nothing.
func Compile(schema json.RawMessage) (*Schema, error) {
	return CompileNamed("the input schema", schema)
}

// CompileNamed is Compile for a schema its errors call name (a tool's
// outputSchema: "the outputSchema").
func CompileNamed(name string, schema json.RawMessage) (*Schema, error) {
	raw := bytes.TrimSpace(schema)
	if len(raw) == 0 {
		return nil, nil
	}
	if d, err := jsonx.Depth(raw); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	} else if d > maxDepth {
		return nil, fmt.Errorf("%s nests %d levels deep, more than %d", name, d, maxDepth)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Every format the library knows (date, date-time, email, uri, uuid,
	// ipv4…) is checked, whatever the draft says of formats: a value the
	// schema calls a date and is not one would fail at the server.
	c.AssertFormat()
	c.UseLoader(noLoader{})
	const loc = "file:///mcplens/input-schema.json" // never read: added as a resource
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		// The library names the schema by its internal location and lists
		// every failed keyword below; the first line says what is wrong.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		msg = strings.ReplaceAll(msg, `"`+loc+`#" `, "")
		return nil, fmt.Errorf("%s does not compile: %s", name, msg)
	}
	return &Schema{s: s}, nil
}

// Check returns the problems of args against the schema; s nil checks
// nothing.
func (s *Schema) Check(args json.RawMessage) ([]Problem, error) {
	if s == nil {
		return nil, Syntax(args)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, Syntax(args)
	}
	err = s.s.Validate(inst)
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil, nil
	}
	if !errors.As(err, &ve) {
		return nil, err
	}
	return problems(ve), nil
}

// problems flattens a validation error to its leaves, one a pointer and
// message, without repeats.
func problems(ve *jsonschema.ValidationError) []Problem {
	var ps []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			p := Problem{Pointer: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)}
			if !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortStableFunc(ps, func(a, b Problem) int { return strings.Compare(a.Pointer, b.Pointer) })
	return ps
}

// pointer is the JSON pointer (RFC 6901) of a path of tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
		}
		b.WriteString(t)
	}
	return b.String()
}

// noLoader refuses every reference outside the schema: a schema from a
// server must not make mcplens read a file or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema: mcplens resolves references only inside it", url)
}
