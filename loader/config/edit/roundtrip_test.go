package edit

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/tailscale/hujson"

	"github.com/mcplens/mcplens/loader/config"
)

var testTap = Tap{Exe: "/opt/mcplens", Record: func(l string) string { return "/state/taps/" + l + ".jsonl" }}

// A userEdit is an edit a user makes between install and uninstall,
// located by parsing, so that it applies to the original and the tapped
// bytes alike; ok is false when the config has nothing it applies to.
type userEdit func(data []byte, f genFormat) (out []byte, ok bool)

var userEdits = []struct {
	name string
	edit userEdit
}{
	{"add a server", addServer},
	{"change a server's env", changeEnv},
	{"add an unrelated key", addKey},
}

// roundTrip generates a config of every format from in and holds, for
// each: uninstall(install(x)) == x, and uninstall(E(install(x))) == E(x)
// for each user edit E. It reports how many configs it checked.
func roundTrip(t *testing.T, in []byte) int {
	checked := 0
	for _, f := range genFormats {
		p := &picker{b: slices.Clone(in)}
		x := []byte(genConfig(p, f))
		path := filepath.Join("/nowhere", f.file)
		doc, err := Parse(path, x)
		if err != nil {
			continue // not a config mcplens reads: Parse refused it, which is all it may do
		}
		y, _, err := doc.Tap(testTap)
		if err != nil {
			t.Fatalf("%s: install refused a config mcplens reads: %v\n%s", f.name, err, x)
		}
		if back := untap(t, path, y); !bytes.Equal(back, x) {
			t.Fatalf("%s: uninstall(install(x)) != x\nx:\n%s\ninstalled:\n%s\nback:\n%s", f.name, x, y, back)
		}
		checked++
		for _, e := range userEdits {
			ex, ok1 := e.edit(x, f)
			ey, ok2 := e.edit(y, f)
			if !ok1 || !ok2 {
				continue
			}
			if _, err := Parse(path, ey); err != nil {
				t.Fatalf("%s, %s: the edit broke the test's config: %v\n%s", f.name, e.name, err, ey)
			}
			if back := untap(t, path, ey); !bytes.Equal(back, ex) {
				t.Fatalf("%s, %s: the user's edit did not survive uninstall\nedited original:\n%s\nedited tapped:\n%s\nback:\n%s", f.name, e.name, ex, ey, back)
			}
		}
		appendArg(t, path, x, y)
	}
	return checked
}

func untap(t *testing.T, path string, data []byte) []byte {
	t.Helper()
	doc, err := Parse(path, data)
	if err != nil {
		t.Fatalf("the tapped config does not parse: %v\n%s", err, data)
	}
	out, _, err := doc.Untap()
	if err != nil {
		t.Fatalf("uninstall: %v\n%s", err, data)
	}
	return out
}

// appendArg adds an argument to the end of every tapped server's args,
// and compacts the tap's own arguments of one of them (a formatter's
// doing), and wants uninstall to give each server its own command and
// args again, the added argument kept.
func appendArg(t *testing.T, path string, x, y []byte) {
	doc, _ := Parse(path, y)
	var edits []edit
	for i, s := range doc.servers {
		if _, _, _, ok := tapOf(s); !ok {
			continue
		}
		last := s.elems[len(s.elems)-1]
		edits = append(edits, edit{last.end, last.end, `, "--verbose"`})
		if i == 0 { // "tap","--name",... as a formatter writes them
			var parts []string
			for _, e := range s.elems[:6] {
				parts = append(parts, string(y[e.start:e.end]))
			}
			edits = append(edits, edit{s.elems[0].start, s.elems[6].start, joinComma(parts)})
		}
	}
	if len(edits) == 0 {
		return
	}
	z, err := doc.apply(edits)
	if err != nil {
		t.Fatalf("appending an argument: %v\n%s", err, y)
	}
	back := untap(t, path, z)
	before, _ := config.ParseWith(path, x, config.Options{})
	after, err := config.ParseWith(path, back, config.Options{})
	if err != nil {
		t.Fatalf("uninstall after an added argument does not parse: %v\n%s", err, back)
	}
	for i, s := range before.Servers {
		a := after.Servers[i]
		if s.Command == "" {
			continue
		}
		want := append(slices.Clone(s.Args), "--verbose")
		if a.Command != s.Command || !slices.Equal(a.Args, want) {
			t.Fatalf("server %s after an added argument: %q %q, want %q %q\ntapped and edited:\n%s\nback:\n%s", s.Label, a.Command, a.Args, s.Command, want, z, back)
		}
	}
}

func joinComma(parts []string) string {
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString(p)
		b.WriteString(",")
	}
	return b.String()
}

// jsonRoot parses a JSON config for an edit: the value and where its
// bytes start.
func jsonRoot(data []byte) (hujson.Value, int, bool) {
	base := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		base = len(bom)
	}
	v, err := hujson.Parse(data[base:])
	return v, base, err == nil
}

func splice(data []byte, at int, text string) []byte {
	return slices.Concat(data[:at], []byte(text), data[at:])
}

// addServer adds a server first in the servers (JSON), or a table at the
// end (TOML).
func addServer(data []byte, f genFormat) ([]byte, bool) {
	if f.toml {
		return append(slices.Clone(data), "\n[mcp_servers.added]\ncommand = \"added\"\n"...), true
	}
	v, base, ok := jsonRoot(data)
	servers := member(&v, f.key)
	if !ok || servers == nil {
		return nil, false
	}
	text := `"added": {"command": "added"}`
	if len(members(servers)) > 0 {
		text += ", "
	}
	return splice(data, base+servers.StartOffset+1, text), true
}

// changeEnv gives the first server with an env another one.
func changeEnv(data []byte, f genFormat) ([]byte, bool) {
	if f.toml {
		var p unstable.Parser
		p.Reset(data)
		for p.NextExpression() {
			e := p.Expression()
			if e.Kind != unstable.KeyValue {
				continue
			}
			k := e.Key()
			k.Next()
			if string(k.Node().Data) == "B" || string(k.Node().Data) == "A" {
				v := e.Value()
				if v.Kind == unstable.String {
					return slices.Concat(data[:v.Raw.Offset], []byte(`"changed"`), data[v.Raw.Offset+v.Raw.Length:]), true
				}
			}
			if v := e.Value(); v.Kind == unstable.InlineTable {
				for it := v.Children(); it.Next(); {
					c := it.Node()
					ck := c.Key()
					ck.Next()
					if string(ck.Node().Data) == "env" && c.Value().Kind == unstable.InlineTable {
						for it2 := c.Value().Children(); it2.Next(); {
							if sv := it2.Node().Value(); sv.Kind == unstable.String {
								return slices.Concat(data[:sv.Raw.Offset], []byte(`"changed"`), data[sv.Raw.Offset+sv.Raw.Length:]), true
							}
						}
					}
				}
			}
		}
		return nil, false
	}
	v, base, ok := jsonRoot(data)
	if !ok {
		return nil, false
	}
	for _, m := range members(member(&v, f.key)) {
		if env := member(&m.Value, "env"); env != nil {
			return slices.Concat(data[:base+env.StartOffset], []byte(`{"CHANGED": "1"}`), data[base+env.EndOffset:]), true
		}
	}
	return nil, false
}

// addKey adds a key the servers do not use: first in the object (JSON),
// on a first line (TOML).
func addKey(data []byte, f genFormat) ([]byte, bool) {
	if f.toml {
		return append([]byte("added = true\n"), data...), true
	}
	v, base, ok := jsonRoot(data)
	if !ok {
		return nil, false
	}
	return splice(data, base+v.StartOffset+1, `"added": true, `), true
}

// TestRoundTripGenerated holds the round trip over configs generated from
// random bytes, of every format.
func TestRoundTripGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	checked := 0
	for range 1000 {
		in := make([]byte, 64)
		for i := range in {
			in[i] = byte(r.Uint32())
		}
		checked += roundTrip(t, in)
	}
	if checked < 1000*len(genFormats)/2 {
		t.Fatalf("only %d of %d generated configs parsed: the generator is broken", checked, 1000*len(genFormats))
	}
	t.Logf("%d configs round-tripped", checked)
}

// FuzzRoundTrip is the round trip over configs generated from the
// fuzzer's bytes: go test ./loader/config/edit -fuzz FuzzRoundTrip.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Fuzz(func(t *testing.T, in []byte) { roundTrip(t, in) })
}
