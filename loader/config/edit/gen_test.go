package edit

import (
	"fmt"
	"strings"
)

// A picker draws choices from a fuzzer's bytes (zero once they run out),
// so that every input is a config and a small change of input a small
// change of config.
type picker struct{ b []byte }

func (p *picker) n(k int) int {
	if len(p.b) == 0 || k <= 1 {
		return 0
	}
	c := p.b[0]
	p.b = p.b[1:]
	return int(c) % k
}

func (p *picker) of(choices ...string) string { return choices[p.n(len(choices))] }

// A genFormat is a format to generate: where its file is, the key of its
// servers, its syntax.
type genFormat struct {
	name, file, key string
	toml, jsonc     bool
}

var genFormats = []genFormat{
	{"claude-code", ".mcp.json", "mcpServers", false, false},
	{"claude-code-home", ".claude.json", "mcpServers", false, false},
	{"claude-desktop", "claude_desktop_config.json", "mcpServers", false, false},
	{"cursor", ".cursor/mcp.json", "mcpServers", false, false},
	{"vscode", ".vscode/mcp.json", "servers", false, true},
	{"windsurf", "mcp_config.json", "mcpServers", false, false},
	{"zed", ".zed/settings.json", "context_servers", false, true},
	{"gemini", ".gemini/settings.json", "mcpServers", false, true},
	{"codex", ".codex/config.toml", "mcp_servers", true, false},
}

var genLabels = []string{"fs", "git", "a b", `q"uote`, "é", "dot.ted", "x-y_z", `back\slash`}

// genConfig writes a config of format f from p: every shape its syntax
// allows for a server's command and args (any order, no args, empty and
// spaced arrays, comments, trailing commas, CRLF, a BOM; in TOML, tables,
// dotted keys, inline tables, literal and multi-line strings, and a
// multi-line string holding a table header).
func genConfig(p *picker, f genFormat) string {
	if f.toml {
		return genTOML(p)
	}
	nl := p.of("\n", "\r\n", "")
	ind := p.of("  ", "\t", "    ")
	if nl == "" {
		ind = " "
	}
	comments := f.jsonc || p.n(4) == 0 // strict formats read comments too, with a finding
	cmt := func(s string) string {
		if comments && p.n(3) == 0 {
			return p.of("/* "+s+" */ ", "// "+s+nl+ind+ind)
		}
		return ""
	}
	if nl == "" {
		cmt = func(s string) string { return "" }
	}
	colon := p.of(": ", ":", " : ")
	var servers []string
	used := map[string]bool{}
	for i := p.n(4) + 1; i > 0; i-- {
		label := genLabels[p.n(len(genLabels))]
		if used[label] {
			continue
		}
		used[label] = true
		servers = append(servers, ind+ind+cmt("server")+jsonString(label)+colon+genJSONServer(p, f, nl, ind+ind, colon, comments))
	}
	body := strings.Join(servers, ","+nl)
	if f.jsonc && len(servers) > 0 && p.n(3) == 0 {
		body += ","
	}
	serversObj := "{" + nl + body + nl + ind + "}"
	if len(servers) == 0 {
		serversObj = p.of("{}", "{ }")
	}
	var top []string
	if p.n(2) == 0 {
		top = append(top, ind+`"theme"`+colon+`"dark"`)
	}
	top = append(top, ind+jsonString(f.key)+colon+serversObj)
	if f.name == "claude-code-home" && p.n(2) == 0 {
		top = append(top, ind+`"projects"`+colon+`{"/p": {"mcpServers": {"proj": {"command": "pc", "args": []}}}}`)
	}
	if p.n(2) == 0 {
		top = append(top, ind+`"zz"`+colon+`[1, 2]`)
	}
	out := "{" + nl + strings.Join(top, ","+nl) + nl + "}" + p.of("", nl)
	if comments && nl != "" && p.n(2) == 0 {
		out = "// config" + nl + out
	}
	if p.n(5) == 0 {
		out = bom + out
	}
	return out
}

// genJSONServer writes one server object.
func genJSONServer(p *picker, f genFormat, nl, ind, colon string, comments bool) string {
	if p.n(6) == 0 {
		return `{"url"` + colon + `"https://example.com/mcp"}`
	}
	cmd := p.of(`"npx"`, `"${HOME}/bin/srv"`, `"c:\\srv\\a b.exe"`, `"\u006eode"`, `"é/srv"`)
	var members []string
	members = append(members, `"command"`+colon+cmd)
	switch p.n(7) {
	case 0, 1:
	case 2:
		members = append(members, `"args"`+colon+"[]")
	case 3:
		members = append(members, `"args"`+colon+"[ ]")
	case 4:
		members = append(members, `"args"`+colon+`["-y", "srv"]`)
	case 5:
		members = append(members, `"args"`+colon+"["+nl+ind+"  "+`"-y",`+nl+ind+"  "+`"srv"`+nl+ind+"]")
	case 6:
		if comments && nl != "" {
			members = append(members, `"args"`+colon+"[ // flags"+nl+ind+`"-y", "srv",`+nl+ind+"]")
		} else {
			members = append(members, `"args"`+colon+`[ "-y" ]`)
		}
	}
	if p.n(2) == 0 {
		members = append(members, `"env"`+colon+`{"TOKEN"`+colon+`"x", "MODE"`+colon+`"a"}`)
	}
	if p.n(2) == 0 { // any member order
		for i := len(members) - 1; i > 0; i-- {
			j := p.n(i + 1)
			members[i], members[j] = members[j], members[i]
		}
	}
	if f.name == "zed" && p.n(3) == 0 { // Zed's older command object
		inner := strings.Join(members, ", ")
		inner = strings.Replace(inner, `"command"`, `"path"`, 1)
		return `{"command"` + colon + "{" + inner + "}}"
	}
	sep := p.of(", ", ","+nl+ind+"  ", ",")
	if nl == "" {
		sep = ", "
	}
	body := strings.Join(members, sep)
	if comments && p.n(4) == 0 {
		body += ","
	}
	return "{" + p.of("", " ") + body + p.of("", " ") + "}"
}

func jsonString(s string) string {
	return fmt.Sprintf("%q", s) // Go's quoting is JSON for these labels
}

// genTOML writes a Codex config.
func genTOML(p *picker) string {
	nl := p.of("\n", "\r\n")
	var root, section, tables []string
	if p.n(2) == 0 {
		root = append(root, `model = "o3"`)
	}
	if p.n(3) == 0 {
		root = append(root, `notes = """`+nl+`[mcp_servers.evil]`+nl+`command = "x"`+nl+`"""`)
	}
	if p.n(4) == 0 {
		root = append(root, `literal = '''`+nl+`[mcp_servers.evil2]`+nl+`'''`)
	}
	dotted := p.n(2) == 0 // servers as root dotted keys, else under [mcp_servers]
	used := map[string]bool{}
	for i := p.n(4) + 1; i > 0; i-- {
		label := genLabels[p.n(len(genLabels))]
		if used[label] {
			continue
		}
		used[label] = true
		key := tomlKey(label)
		kv := genTOMLServer(p)
		switch p.n(3) {
		case 0: // a table
			t := "[mcp_servers." + key + "]" + nl + strings.Join(kv, nl)
			if p.n(3) == 0 {
				t += nl + nl + "[mcp_servers." + key + ".env]" + nl + `B = "2"`
			}
			tables = append(tables, t)
		case 1: // an inline table
			line := key + " = { " + strings.Join(kv, ", ") + " }"
			if dotted {
				root = append(root, "mcp_servers."+line)
			} else {
				section = append(section, line)
			}
		default: // dotted keys
			for _, x := range kv {
				if dotted {
					root = append(root, "mcp_servers."+key+"."+x)
				} else {
					section = append(section, p.of("", "  ")+key+"."+x)
				}
			}
		}
	}
	out := strings.Join(root, nl)
	if len(section) > 0 {
		out += nl + nl + "[mcp_servers]" + p.of("", " # servers") + nl + strings.Join(section, nl)
	}
	for _, t := range tables {
		out += nl + nl + t
	}
	out = strings.TrimLeft(out, "\r\n")
	if p.n(2) == 0 {
		out = "# codex" + nl + out
	}
	return out + p.of("", nl)
}

// genTOMLServer writes one server's key = value pairs.
func genTOMLServer(p *picker) []string {
	if p.n(6) == 0 {
		return []string{`url = "https://example.com/mcp"`}
	}
	kv := []string{"command = " + p.of(`"npx"`, `'C:\srv'`, `"""npx"""`, `'''npx'''`, `"\u00e9"`)}
	switch p.n(6) {
	case 0, 1:
	case 2:
		kv = append(kv, "args = []")
	case 3:
		kv = append(kv, "args = [ ]")
	case 4:
		kv = append(kv, `args = ["-y", 'srv']`)
	case 5:
		kv = append(kv, `args = [ "-y", # flag`+"\n"+`  "srv", ]`)
	}
	if p.n(2) == 0 {
		kv = append(kv, `env = { A = "1" }`)
	}
	if p.n(2) == 0 {
		kv[0], kv[len(kv)-1] = kv[len(kv)-1], kv[0]
	}
	return kv
}

// tomlKey is label as a TOML key: bare when it can be.
func tomlKey(label string) string {
	for _, r := range label {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return jsonString(label)
		}
	}
	return label
}
