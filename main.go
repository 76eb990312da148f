package main

import (
	"fmt"
	"os"

	"github.com/mcplens/mcplens/cli"
	"github.com/mcplens/mcplens/internal/procguard"
	"github.com/mcplens/mcplens/loader/demo"
)

func main() {
	if len(os.Args) >= 2 && os.Args[1] == procguard.Subcommand {
		if err := procguard.Serve(os.Stdin); err != nil {
			os.Exit(1)
		}
		return
	}
	if len(os.Args) >= 3 && os.Args[1] == demo.Subcommand {
		if err := demo.Serve(os.Args[2], os.Args[3:]...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	var guard *procguard.Guard
	if exe, err := os.Executable(); err == nil {
		guard = procguard.New(exe, procguard.Subcommand)
	}
	code := cli.Main(os.Args[1:], guard, withTestHooks)
	_ = guard.Close()
	os.Exit(code)
}
