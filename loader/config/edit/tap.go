package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcplens/mcplens/loader/config"
)

// A Doc is a config's bytes with its servers found.
type Doc struct {
	path    string
	data    []byte
	format  string
	toml    bool
	strict  bool // the bytes are JSON, not only JSONC: they stay JSON
	servers []server
}

// Parse reads data, the bytes of the config file at path, as mcplens reads
// a config (config.ParseWith), and finds where each server's command and
// args are. It refuses a config mcplens cannot read.
func Parse(path string, data []byte) (*Doc, error) {
	cfg, err := config.ParseWith(path, data, config.Options{})
	if err != nil {
		return nil, fmt.Errorf("refusing to edit a config mcplens cannot read: %w", err)
	}
	key, isTOML, ok := config.ServersKey(cfg.Format)
	if !ok {
		return nil, fmt.Errorf("%s: unknown format %q", path, cfg.Format)
	}
	d := &Doc{path: path, data: data, format: cfg.Format, toml: isTOML}
	if isTOML {
		d.servers, err = tomlServers(data, key)
	} else {
		d.strict = json.Valid(bytes.TrimPrefix(data, []byte(bom)))
		d.servers, err = jsonServers(data, key)
	}
	if err != nil {
		return nil, fmt.Errorf("refusing to edit %s: %w", path, err)
	}
	return d, nil
}

// Labels are the labels of the config's servers, in the file's order.
func (d *Doc) Labels() []string {
	out := make([]string, len(d.servers))
	for i, s := range d.servers {
		out[i] = s.label
	}
	return out
}

// A Tap says how to tap a config's servers.
type Tap struct {
	// Exe is the mcplens binary the client is to run.
	Exe string
	// Record names the recording of the server labelled label.
	Record func(label string) string
	// Only are the labels of the servers to tap; none means every stdio
	// server.
	Only []string
}

// An Outcome is what Tap did to one server.
type Outcome struct {
	Label string
	// Tapped reports whether the server now runs through the tap;
	// Already, whether it did before.
	Tapped, Already bool
	// Skipped says why the server was left alone, or is "".
	Skipped string
}

// Tap returns the config's bytes with each chosen stdio server run through
// `mcplens tap`, and what it did to each. Only the servers' command and
// args change: the command becomes t.Exe, and the args start with the
// tap's own, then the original command's bytes as written:
//
//	"command": "npx", "args": ["-y", "srv"]
//	"command": "/usr/bin/mcplens", "args": ["tap", "--name", "srv", "--record", "R", "--", "npx", "-y", "srv"]
//
// A server with no args gets an args array right after its command, its
// tap's flags in the other order (--record before --name), which is how
// Untap knows to take the array away again: the tapped bytes alone say
// how to give back the original ones. Tap refuses to return an edit that
// does not parse as the original did, or that Untap would not undo
// exactly.
func (d *Doc) Tap(t Tap) ([]byte, []Outcome, error) {
	out, outs, err := d.tap(t)
	if err != nil || bytes.Equal(out, d.data) {
		return out, outs, err
	}
	// What Untap gives back must be what it gives back now: the original
	// bytes, or those with the taps of an earlier install undone too.
	want, _, err := d.Untap()
	if err != nil {
		return nil, nil, err
	}
	again, err := Parse(d.path, out)
	if err == nil {
		var back []byte
		if back, _, err = again.Untap(); err == nil && !bytes.Equal(back, want) {
			err = errors.New("its bytes differ")
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the edit of %s would not undo exactly (%w); nothing written", d.path, err)
	}
	return out, outs, nil
}

// tap is Tap without the check that Untap undoes it.
func (d *Doc) tap(t Tap) ([]byte, []Outcome, error) {
	for _, l := range t.Only {
		if !slices.Contains(d.Labels(), l) {
			return nil, nil, fmt.Errorf("%s has no server %q", d.path, l)
		}
	}
	var edits []edit
	var outs []Outcome
	for _, s := range d.servers {
		if len(t.Only) > 0 && !slices.Contains(t.Only, s.label) {
			continue
		}
		o := Outcome{Label: s.label}
		switch _, _, _, tapped := tapOf(s); {
		case s.why != "":
			o.Skipped = s.why
		case tapped:
			o.Already = true
		default:
			o.Tapped = true
			edits = append(edits, d.tapEdits(s, t.Exe, t.Record(s.label))...)
		}
		outs = append(outs, o)
	}
	if len(edits) == 0 {
		return d.data, outs, nil
	}
	out, err := d.apply(edits)
	if err != nil {
		return nil, nil, err
	}
	return out, outs, nil
}

// Untap returns the config's bytes with every tapped server running its
// own command again, and their labels. What the tap inserted is taken
// out byte for byte; everything else, edits made since the install
// included, stays. A tapped server whose tap arguments were reformatted
// since is untapped element by element.
func (d *Doc) Untap() ([]byte, []string, error) {
	var edits []edit
	var labels []string
	for _, s := range d.servers {
		if s.why != "" {
			continue
		}
		if e := d.untapEdits(s); e != nil {
			edits = append(edits, e...)
			labels = append(labels, s.label)
		}
	}
	if len(edits) == 0 {
		return d.data, nil, nil
	}
	out, err := d.apply(edits)
	if err != nil {
		return nil, nil, err
	}
	return out, labels, nil
}

// tapEdits are the edits that tap server s through exe, recording to
// record.
func (d *Doc) tapEdits(s server, exe, record string) []edit {
	cmd := string(d.data[s.cmd.start:s.cmd.end])
	edits := []edit{{s.cmd.start, s.cmd.end, d.lit(exe)}}
	if !s.hasArgs {
		text := s.argsKey + "[" + d.prefix(s.label, record, true) + cmd + "]"
		return append(edits, edit{s.cmd.end, s.cmd.end, text})
	}
	text := d.prefix(s.label, record, false) + cmd
	if len(s.elems) > 0 {
		text += ", "
	}
	return append(edits, edit{s.args.start + 1, s.args.start + 1, text})
}

// untapEdits are the edits that undo the tap of server s, nil when s does
// not run through one.
func (d *Doc) untapEdits(s server) []edit {
	label, record, added, ok := tapOf(s)
	if !ok {
		return nil
	}
	e, data := s.elems, d.data
	cmd := e[6]
	edits := []edit{{s.cmd.start, s.cmd.end, string(data[cmd.start:cmd.end])}}
	rest := data[cmd.end:s.args.end]
	if added && closes(rest) && s.cmd.end <= s.args.start && string(data[s.cmd.end:s.args.start]) == s.argsKey {
		return append(edits, edit{s.cmd.end, s.args.end, ""}) // the array the install added
	}
	if string(data[s.args.start:cmd.start]) == "["+d.prefix(label, record, added) {
		cut := cmd.end
		switch {
		case bytes.HasPrefix(rest, []byte(", ")):
			cut += 2
		case bytes.HasPrefix(rest, []byte(",")):
			cut++
		}
		return append(edits, edit{s.args.start + 1, cut, ""})
	}
	// Reformatted since: take the seven elements out.
	if len(e) > 7 && e[7].start >= 0 {
		return append(edits, edit{e[0].start, e[7].start, ""})
	}
	cut := cmd.end
	if t := bytes.TrimLeft(rest, " \t\r\n"); len(t) > 0 && t[0] == ',' {
		cut = s.args.end - len(t) + 1
	}
	return append(edits, edit{e[0].start, cut, ""})
}

// closes reports whether b, what follows the last element of an array,
// only closes it.
func closes(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte(",")), " \t\r\n")
	return string(b) == "]"
}

// tapOf reads the tap arguments Tap puts first in a server's args: the
// label, the recording, and whether Tap added the args array (--record
// comes first then); ok is false when the server does not run through a
// tap.
func tapOf(s server) (label, record string, added, ok bool) {
	e := s.elems
	if len(e) < 7 {
		return "", "", false, false
	}
	for _, x := range e[:7] {
		if !x.isStr || x.start < 0 {
			return "", "", false, false
		}
	}
	if e[0].str != "tap" || e[5].str != "--" {
		return "", "", false, false
	}
	switch {
	case e[1].str == "--name" && e[3].str == "--record":
		return e[2].str, e[4].str, false, true
	case e[1].str == "--record" && e[3].str == "--name":
		return e[4].str, e[2].str, true, true
	}
	return "", "", false, false
}

// prefix is the text Tap puts first in a server's args, up to the
// original command: the tap's flags, --record first when added.
func (d *Doc) prefix(label, record string, added bool) string {
	name, rec := `"--name", `+d.lit(label), `"--record", `+d.lit(record)
	if added {
		name, rec = rec, name
	}
	return `"tap", ` + name + ", " + rec + `, "--", `
}

// lit is s as a JSON string; in TOML, a basic string (DEL escaped too).
func (d *Doc) lit(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	if d.toml {
		out = strings.ReplaceAll(out, "\x7f", `\u007f`)
	}
	return out
}

// check says why out, an edit of the config, is not a config of the same
// format as the original, strict JSON staying strict.
func (d *Doc) check(out []byte) error {
	if d.strict && !json.Valid(bytes.TrimPrefix(out, []byte(bom))) {
		return fmt.Errorf("the edit of %s would not be valid JSON; nothing written", d.path)
	}
	cfg, err := config.ParseWith(d.path, out, config.Options{})
	switch {
	case err != nil:
		return fmt.Errorf("the edit of %s would not parse (%w); nothing written", d.path, err)
	case cfg.Format != d.format:
		return errors.New("the edit of " + d.path + " would read as another format; nothing written")
	}
	return nil
}

// An edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply applies edits to the config's bytes, in one pass, and checks the
// result. Edits that overlap or fall outside the bytes are refused: they
// would be a fault in finding the spans, never a reason to write.
func (d *Doc) apply(edits []edit) ([]byte, error) {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at || e.start > e.end || e.end > len(d.data) {
			return nil, fmt.Errorf("editing %s: overlapping edits at offset %d; nothing written", d.path, e.start)
		}
		out.Write(d.data[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(d.data[at:])
	return out.Bytes(), d.check(out.Bytes())
}
