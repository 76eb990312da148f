// Command oauth serves internal/testkit/oauthtest's authorization server and the
// MCP server behind it on loopback, for checks outside Go tests (the tmux
// check of the interface's L key): it prints the MCP endpoint's URL on a
// line, then serves until stdin closes.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mcplens/mcplens/internal/testkit/oauthtest"
)

type process struct{ cleanups []func() }

func (p *process) Cleanup(f func()) { p.cleanups = append(p.cleanups, f) }

func main() {
	p := &process{}
	s := oauthtest.Start(p, oauthtest.Config{})
	fmt.Println(s.MCPURL)
	io.Copy(io.Discard, os.Stdin)
	for _, f := range p.cleanups {
		f()
	}
}
