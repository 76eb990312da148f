// Command mcplens inspects the tool surface an MCP client builds from the
// servers in a config: which tools each server advertised, which were
// registered and under what name, which a provider would reject, and the
// exact JSON-RPC a call puts on the wire.
//
// Usage:
//
//	mcplens              open the built-in demo
//	mcplens PATH         open a config in the mcpServers JSON shape
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/ui"
)

func main() {
	if len(os.Args) >= 3 && os.Args[1] == demo.Subcommand {
		if err := demo.Serve(os.Args[2], os.Args[3:]...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run is mcplens's command line; it returns the exit code.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcplens", flag.ContinueOnError)
	fs.SetOutput(stderr)
	policy := fs.String("policy", model.Policies()[0].Name, "naming policy to start with: "+policyNames())
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcplens [--policy P] [CONFIG]\n\nWith no CONFIG, mcplens opens its built-in demo.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	if _, ok := model.PolicyNamed(*policy); !ok {
		fmt.Fprintf(stderr, "mcplens: unknown policy %q (want one of: %s)\n", *policy, policyNames())
		return 2
	}

	cfg, err := config(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 2
	}
	// mcp-go logs through the default slog logger; on a terminal owned by
	// the interface that would tear the screen.
	slog.SetDefault(slog.New(slog.DiscardHandler))

	session := loader.Open(cfg, loader.Options{})
	defer session.Close()

	m := ui.New(cfg.Path, cfg.Servers, session)
	m.SetPolicy(*policy)
	p := tea.NewProgram(m)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		if _, ok := <-signals; ok {
			p.Quit()
		}
	}()
	defer signal.Stop(signals)

	if _, err := p.Run(); err != nil {
		fmt.Fprintf(stderr, "mcplens: %v\n", err)
		return 1
	}
	return 0
}

// config loads the config at path, or the demo's when path is empty.
func config(path string) (*loader.Config, error) {
	if path != "" {
		return loader.LoadConfig(path)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the mcplens binary for the demo servers: %w", err)
	}
	return demo.Config(exe), nil
}

func policyNames() string {
	var names []string
	for _, p := range model.Policies() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
