package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"
)

// An EnvVar is one entry of a server's "env" object, kept in file order.
type EnvVar struct{ Key, Value string }

// A ServerSpec is one entry of a config's "mcpServers" object.
type ServerSpec struct {
	// Label is the server's key in the config: the server label.
	// Declaration order matters (the first-declared server wins under the
	// legacy policies), so specs are kept in file order.
	Label   string
	Command string
	Args    []string
	Env     []EnvVar // in file order
	// Unknown lists the server's keys that mcplens does not read yet
	// ("cwd", "type", "disabled", ...), in file order.
	Unknown []string
}

// A Config is a parsed config file: its servers in declaration order.
type Config struct {
	Path    string
	Servers []ServerSpec
}

// A ConfigError is a config that cannot be used, with the position of the
// offending token. Line and Col are 1-based (Col counts characters); both
// are 0 when the error has no position.
type ConfigError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *ConfigError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// LoadConfig reads and parses the config file at path.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig parses data, the contents of the config file at path, in the
// {"mcpServers": {"LABEL": {"command": ..., "args": [...], "env": {...}}}}
// shape. Every error is a *ConfigError naming path:line:col.
func ParseConfig(path string, data []byte) (*Config, error) {
	p := &configParser{path: path, data: data}
	// A UTF-8 byte order mark is not JSON, but editors write it; skip it
	// and keep offsets relative to the whole file.
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.base = 3
	}
	return p.parse()
}

// configParser walks the document token by token: Go maps forget key order,
// and the order of servers is meaningful.
type configParser struct {
	path string
	data []byte
	base int // bytes skipped before the JSON text (a byte order mark)
	dec  *json.Decoder
}

func (p *configParser) parse() (*Config, error) {
	text := p.data[p.base:]
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, &ConfigError{Path: p.path, Msg: `empty file; want {"mcpServers": {...}}`}
	}
	// Validate the whole text first: the encoding/json scanner reports the
	// offending byte exactly, while Decoder.Token's offsets vary by error.
	var whole json.RawMessage
	if err := json.Unmarshal(text, &whole); err != nil {
		return nil, p.syntaxError(err)
	}

	p.dec = json.NewDecoder(bytes.NewReader(text))
	p.dec.UseNumber()
	start := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.errorAt(start, err.Error())
	}
	if tok != json.Delim('{') {
		return nil, p.errorAt(start, fmt.Sprintf(`top level is %s, want an object with "mcpServers"`, describe(tok)))
	}

	cfg := &Config{Path: p.path}
	found := false
	for p.dec.More() {
		keyAt := p.next()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if key != "mcpServers" {
			if err := p.skip(); err != nil {
				return nil, err
			}
			continue
		}
		if found {
			return nil, p.errorAt(keyAt, `"mcpServers" appears twice`)
		}
		found = true
		if cfg.Servers, err = p.servers(keyAt); err != nil {
			return nil, err
		}
	}
	if !found {
		return nil, &ConfigError{Path: p.path, Line: 1, Col: 1, Msg: `no "mcpServers" key at the top level`}
	}
	return cfg, nil
}

// servers parses the value of "mcpServers", declared at keyAt.
func (p *configParser) servers(keyAt int) ([]ServerSpec, error) {
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.errorAt(at, err.Error())
	}
	if tok != json.Delim('{') {
		return nil, p.errorAt(at, fmt.Sprintf(`"mcpServers" is %s, want an object`, describe(tok)))
	}
	var specs []ServerSpec
	declared := map[string]int{} // label -> offset of its key
	for p.dec.More() {
		labelAt := p.next()
		label, err := p.key()
		if err != nil {
			return nil, err
		}
		if label == "" {
			return nil, p.errorAt(labelAt, "empty server label")
		}
		if first, dup := declared[label]; dup {
			line, col := p.position(first)
			return nil, p.errorAt(labelAt, fmt.Sprintf("duplicate server label %q (first declared at %d:%d)", label, line, col))
		}
		declared[label] = labelAt
		spec, err := p.server(label, labelAt)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	if _, err := p.dec.Token(); err != nil { // the closing '}'
		return nil, p.errorAt(p.next(), err.Error())
	}
	if len(specs) == 0 {
		return nil, p.errorAt(keyAt, `no servers: "mcpServers" is empty`)
	}
	return specs, nil
}

// server parses one server object, whose label was read at labelAt.
func (p *configParser) server(label string, labelAt int) (ServerSpec, error) {
	spec := ServerSpec{Label: label}
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return spec, p.errorAt(at, err.Error())
	}
	if tok != json.Delim('{') {
		return spec, p.errorAt(at, fmt.Sprintf("server %q is %s, want an object", label, describe(tok)))
	}
	hasCommand := false
	seen := map[string]bool{}
	for p.dec.More() {
		fieldAt := p.next()
		field, err := p.key()
		if err != nil {
			return spec, err
		}
		if seen[field] {
			return spec, p.errorAt(fieldAt, fmt.Sprintf("server %q: %q appears twice", label, field))
		}
		seen[field] = true
		switch field {
		case "command":
			at := p.next()
			tok, err := p.dec.Token()
			if err != nil {
				return spec, p.errorAt(at, err.Error())
			}
			s, ok := tok.(string)
			if tok == nil {
				continue // "command": null counts as missing
			}
			if !ok {
				return spec, p.errorAt(at, fmt.Sprintf("server %q: command is %s, want a string", label, describe(tok)))
			}
			if s == "" {
				return spec, p.errorAt(at, fmt.Sprintf("server %q: empty command", label))
			}
			spec.Command, hasCommand = s, true
		case "args":
			if spec.Args, err = p.strings(label); err != nil {
				return spec, err
			}
		case "env":
			if spec.Env, err = p.env(label); err != nil {
				return spec, err
			}
		default:
			spec.Unknown = append(spec.Unknown, field)
			if err := p.skip(); err != nil {
				return spec, err
			}
		}
	}
	if _, err := p.dec.Token(); err != nil { // the closing '}'
		return spec, p.errorAt(p.next(), err.Error())
	}
	if !hasCommand {
		return spec, p.errorAt(labelAt, fmt.Sprintf("server %q has no \"command\" (only stdio servers are supported)", label))
	}
	return spec, nil
}

// strings parses an "args" array: strings only; null means none.
func (p *configParser) strings(label string) ([]string, error) {
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.errorAt(at, err.Error())
	}
	if tok == nil {
		return nil, nil
	}
	if tok != json.Delim('[') {
		return nil, p.errorAt(at, fmt.Sprintf("server %q: args is %s, want an array of strings", label, describe(tok)))
	}
	args := []string{}
	for i := 0; p.dec.More(); i++ {
		at := p.next()
		tok, err := p.dec.Token()
		if err != nil {
			return nil, p.errorAt(at, err.Error())
		}
		s, ok := tok.(string)
		if !ok {
			return nil, p.errorAt(at, fmt.Sprintf("server %q: args[%d] is %s, want a string", label, i, describe(tok)))
		}
		args = append(args, s)
	}
	if _, err := p.dec.Token(); err != nil { // the closing ']'
		return nil, p.errorAt(p.next(), err.Error())
	}
	return args, nil
}

// env parses an "env" object: string values only, in file order.
func (p *configParser) env(label string) ([]EnvVar, error) {
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.errorAt(at, err.Error())
	}
	if tok == nil {
		return nil, nil
	}
	if tok != json.Delim('{') {
		return nil, p.errorAt(at, fmt.Sprintf("server %q: env is %s, want an object of strings", label, describe(tok)))
	}
	env := []EnvVar{}
	seen := map[string]bool{}
	for p.dec.More() {
		keyAt := p.next()
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, p.errorAt(keyAt, fmt.Sprintf("server %q: env %q appears twice", label, key))
		}
		seen[key] = true
		at := p.next()
		tok, err := p.dec.Token()
		if err != nil {
			return nil, p.errorAt(at, err.Error())
		}
		s, ok := tok.(string)
		if !ok {
			return nil, p.errorAt(at, fmt.Sprintf("server %q: env %q is %s, want a string", label, key, describe(tok)))
		}
		env = append(env, EnvVar{Key: key, Value: s})
	}
	if _, err := p.dec.Token(); err != nil { // the closing '}'
		return nil, p.errorAt(p.next(), err.Error())
	}
	return env, nil
}

// key reads an object key. The text was validated up front, so inside an
// object the next token is always a string key.
func (p *configParser) key() (string, error) {
	at := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return "", p.errorAt(at, err.Error())
	}
	s, ok := tok.(string)
	if !ok {
		return "", p.errorAt(at, fmt.Sprintf("want an object key, found %s", describe(tok)))
	}
	return s, nil
}

// skip consumes one value whatever its type.
func (p *configParser) skip() error {
	at := p.next()
	var v json.RawMessage
	if err := p.dec.Decode(&v); err != nil {
		return p.errorAt(at, err.Error())
	}
	return nil
}

// next returns the offset (in the JSON text) where the next token starts:
// the decoder's offset is the end of the previous token, before any
// whitespace, ':' or ','.
func (p *configParser) next() int {
	text := p.data[p.base:]
	off := int(p.dec.InputOffset())
	for off < len(text) {
		switch text[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

// syntaxError turns an encoding/json error into a positioned ConfigError.
func (p *configParser) syntaxError(err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &ConfigError{Path: p.path, Msg: err.Error()}
	}
	off := int(se.Offset)
	text := p.data[p.base:]
	if off > 0 && off <= len(text) && se.Error() != "unexpected end of JSON input" {
		off-- // Offset counts the offending byte itself
	}
	return p.errorAt(off, se.Error())
}

// errorAt builds a ConfigError at offset off of the JSON text.
func (p *configParser) errorAt(off int, msg string) *ConfigError {
	line, col := p.position(off)
	return &ConfigError{Path: p.path, Line: line, Col: col, Msg: msg}
}

// position converts an offset of the JSON text to a 1-based line and
// character column of the file.
func (p *configParser) position(off int) (line, col int) {
	off += p.base
	off = min(max(off, 0), len(p.data))
	before := p.data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	if lineStart == 0 {
		lineStart = p.base // the byte order mark is not a column
		if off < lineStart {
			lineStart = off
		}
	}
	return line, 1 + utf8.RuneCount(p.data[lineStart:off])
}

// describe names the JSON type of a token for an error message.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
	}
	return fmt.Sprintf("%v", tok)
}
