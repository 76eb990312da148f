package edit

import (
	"fmt"
	"strings"
	"testing"
)

// benchSize is the size of bigConfig.
var benchSize = 1 << 20

// bigConfig is a config of benchSize bytes, every server of it stdio.
func bigConfig(toml bool) string {
	var b strings.Builder
	if !toml {
		b.WriteString(`{"mcpServers": {`)
	}
	for i := 0; b.Len() < benchSize; i++ {
		if toml {
			fmt.Fprintf(&b, "[mcp_servers.s%d]\ncommand = \"npx\"\nargs = [\"-y\", \"pkg%d\"]\n\n", i, i)
		} else {
			fmt.Fprintf(&b, `"s%d": {"command": "npx", "args": ["-y", "pkg%d"]}, `, i, i)
		}
	}
	if !toml {
		b.WriteString(`"last": {"command": "x"}}}`)
	}
	return b.String()
}

// BenchmarkTapBig installs into and uninstalls from a 3 MiB config of
// tens of thousands of servers: the edit is linear in the file.
func BenchmarkTapBig(b *testing.B) {
	for _, c := range []struct{ name, file string }{{"json", ".mcp.json"}, {"toml", ".codex/config.toml"}} {
		data := []byte(bigConfig(c.file != ".mcp.json"))
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				doc, err := Parse(c.file, data)
				if err != nil {
					b.Fatal(err)
				}
				out, _, err := doc.Tap(testTap)
				if err != nil {
					b.Fatal(err)
				}
				again, _ := Parse(c.file, out)
				if back, _, _ := again.Untap(); len(back) != len(data) {
					b.Fatal("no round trip")
				}
			}
		})
	}
}
