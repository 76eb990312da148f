package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/mcplens/mcplens/relay"
)

func main() {
	record := flag.String("record", "", "record to this file")
	flag.Parse()
	debug.SetMemoryLimit(relay.MemoryLimit)
	command := flag.Args()
	header := relay.HeaderLine(relay.Source{Server: "main", Command: command}, time.Now())
	var sinks []relay.Sink
	if *record != "" {
		rec, err := relay.Record(*record, header, relay.RecordOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sinks = append(sinks, rec)
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	c := relay.NewCopier(relay.CopierOptions{Server: "main"}, sinks...)
	s := relay.Stdio{Command: command[0], Args: command[1:], Stdin: os.Stdin, Stdout: os.Stdout,
		Stderr: os.Stderr, Copy: c, Signals: sigs}
	code, err := s.Run()
	c.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(127)
	}
	os.Exit(code)
}
