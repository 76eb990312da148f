package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/mcplens/mcplens/loader/config/edit"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/relay"
)

// labelList is a repeatable --server flag.
type labelList []string

func (l *labelList) String() string     { return strings.Join(*l, ",") }
func (l *labelList) Set(s string) error { *l = append(*l, s); return nil }

// runTapInstall is `mcplens tap install CONFIG [--server LABEL]...`: it
// rewrites the config so that each chosen stdio server (every one by
// default) runs through `mcplens tap`, recording to RECORD-DIR/LABEL.jsonl;
// HTTP servers are skipped, with how to tap them. It keeps the file's
// bytes but for the servers' command and args (package edit), keeps the
// bytes from just before this install in CONFIG.mcplens-tap.bak and
// prints the diff. A server tapped already is left as it is, so
// installing twice changes nothing.
func runTapInstall(args []string, stdout, stderr io.Writer) int {
	var servers labelList
	fset := flag.NewFlagSet("mcplens tap install", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Var(&servers, "server", "tap only this server (repeatable; default: every stdio server)")
	recordDir := fset.String("record-dir", defaultRecordDir(), "where each server's recording goes, as LABEL.jsonl")
	exe := fset.String("mcplens", executable(), "the mcplens binary the client is to run")
	pos, code, ok := parseCommand(fset, args, stderr, "usage: mcplens tap install CONFIG [--server LABEL]... [--record-dir DIR] [--mcplens PATH]\n\n"+
		"Rewrites CONFIG so that each chosen stdio server runs through mcplens tap, keeping everything else byte for byte;\n"+
		"keeps a backup (CONFIG"+edit.BackupSuffix+") and prints the diff. Undo with mcplens tap uninstall CONFIG.\n\n")
	if !ok {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mcplens tap install: want one config file")
		return exitUsage
	}
	f, doc, err := readForEdit(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitUsage
	}
	for _, label := range servers {
		if !slices.Contains(doc.Labels(), label) {
			fmt.Fprintf(stderr, "mcplens tap install: %s has no server %q\n", f.Path, model.Sanitize(label))
			return exitUsage
		}
	}
	record := func(label string) string { return filepath.Join(*recordDir, relay.FileName(label)+".jsonl") }
	out, outcomes, err := doc.Tap(edit.Tap{Exe: *exe, Record: record, Only: servers})
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitFound
	}
	for _, o := range outcomes {
		switch {
		case o.Skipped != "":
			fmt.Fprintf(stderr, "mcplens tap install: skipping %s: %s\n", model.Sanitize(o.Label), o.Skipped)
		case o.Already:
			fmt.Fprintf(stderr, "mcplens tap install: %s runs through the tap already\n", model.Sanitize(o.Label))
		}
	}
	if bytes.Equal(out, f.Data) {
		fmt.Fprintln(stderr, "mcplens tap install: nothing to change")
		return exitOK
	}
	if err := f.MkdirAll(*recordDir); err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitFound
	}
	if err := f.Backup(); err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: keeping a backup: %v\n", err)
		return exitFound
	}
	if err := f.Write(out); err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitFound
	}
	printDiff(stdout, f.Path, f.Data, out)
	fmt.Fprintf(stderr, "mcplens tap install: %s tapped (backup: %s); recordings go to %s\n", f.Path, f.BackupPath(), *recordDir)
	return exitOK
}

// runTapUninstall is `mcplens tap uninstall CONFIG`: it undoes what tap
// install did to each tapped server, keeping every other edit made since.
// When the result is the backup's bytes, the backup is removed; otherwise
// it is kept, and said so.
func runTapUninstall(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("mcplens tap uninstall", flag.ContinueOnError)
	fset.SetOutput(stderr)
	pos, code, ok := parseCommand(fset, args, stderr, "usage: mcplens tap uninstall CONFIG\n\n"+
		"Undoes mcplens tap install: every tapped server of CONFIG runs its own command again.\n\n")
	if !ok {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mcplens tap uninstall: want one config file")
		return exitUsage
	}
	f, doc, err := readForEdit(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap uninstall: %v\n", err)
		return exitUsage
	}
	out, labels, err := doc.Untap()
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap uninstall: %v\n", err)
		return exitFound
	}
	if len(labels) == 0 {
		fmt.Fprintln(stderr, "mcplens tap uninstall: no server of this config runs through the tap")
		return exitOK
	}
	backup := f.BackupPath()
	orig, berr := edit.Read(backup)
	if err := f.Write(out); err != nil {
		fmt.Fprintf(stderr, "mcplens tap uninstall: %v\n", err)
		return exitFound
	}
	printDiff(stdout, f.Path, f.Data, out)
	switch {
	case berr == nil && bytes.Equal(out, orig.Data):
		os.Remove(backup)
		fmt.Fprintf(stderr, "mcplens tap uninstall: %s is as it was before the install\n", f.Path)
	case berr == nil:
		fmt.Fprintf(stderr, "mcplens tap uninstall: %s changed since the install, and keeps those changes; its bytes from just before the latest install are in %s\n", f.Path, backup)
	}
	return exitOK
}

// printDiff prints the unified diff of a config's edit, line by line
// sanitized (a config's text is its author's).
func printDiff(w io.Writer, path string, before, after []byte) {
	diff := udiff.Unified(path, path, string(before), string(after))
	for line := range strings.Lines(diff) {
		fmt.Fprintln(w, model.Sanitize(strings.TrimSuffix(line, "\n")))
	}
}

// readForEdit reads the config at path and finds its servers.
func readForEdit(path string) (*edit.File, *edit.Doc, error) {
	f, err := edit.Read(path)
	if err != nil {
		return nil, nil, err
	}
	doc, err := edit.Parse(f.Path, f.Data)
	return f, doc, err
}

// defaultRecordDir is where installed taps record: $XDG_STATE_HOME/mcplens/taps,
// else ~/.local/state/mcplens/taps.
func defaultRecordDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "mcplens", "taps")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".local", "state", "mcplens", "taps")
}

// executable is this binary's absolute path, or "mcplens".
func executable() string {
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return "mcplens"
}
