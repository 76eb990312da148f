package cli

import (
	"bytes"
	"context"
	"errors"
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

// tapInstallCommand is `mcplens tap install CONFIG [--server LABEL]...`: it
// rewrites the config so that each chosen stdio server (every one by
// default) runs through `mcplens tap`, recording to RECORD-DIR/LABEL.jsonl;
// HTTP servers are skipped, with how to tap them. It keeps the file's
// bytes but for the servers' command and args (package edit), keeps the
// bytes from just before this install in CONFIG.mcplens-tap.bak and
// prints the diff. A server tapped already is left as it is, so
// installing twice changes nothing.
type tapInstallCommand struct {
	servers        labelList
	recordDir, exe string
	path           string
}

func (c *tapInstallCommand) parse(fset *flag.FlagSet, args []string) error {
	fset.Var(&c.servers, "server", "tap only this server (repeatable; default: every stdio server)")
	fset.StringVar(&c.recordDir, "record-dir", defaultRecordDir(), "where each server's recording goes, as LABEL.jsonl")
	fset.StringVar(&c.exe, "mcplens", executable(), "the mcplens binary the client is to run")
	var err error
	c.path, err = oneConfig(fset, args, "usage: mcplens tap install CONFIG [--server LABEL]... [--record-dir DIR] [--mcplens PATH]\n\n"+
		"Rewrites CONFIG so that each chosen stdio server runs through mcplens tap, keeping everything else byte for byte;\n"+
		"keeps a backup (CONFIG"+edit.BackupSuffix+") and prints the diff. Undo with mcplens tap uninstall CONFIG.\n\n")
	return err
}

// oneConfig parses the flags of a command that takes one config file and
// returns its path.
func oneConfig(fset *flag.FlagSet, args []string, usage string) (string, error) {
	pos, err := parseCommand(fset, args, usage)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usageError(errors.New("want one config file"))
	}
	return pos[0], nil
}

// Run taps the config's servers.
func (c *tapInstallCommand) Run(_ context.Context, std stdio) error {
	stderr := std.err
	f, doc, err := readForEdit(c.path)
	if err != nil {
		return usageError(err)
	}
	for _, label := range c.servers {
		if !slices.Contains(doc.Labels(), label) {
			return usagef("%s has no server %q", f.Path, model.Sanitize(label))
		}
	}
	record := func(label string) string { return filepath.Join(c.recordDir, relay.FileName(label)+".jsonl") }
	out, outcomes, err := doc.Tap(edit.Tap{Exe: c.exe, Record: record, Only: c.servers})
	if err != nil {
		return failError(err)
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
		return nil
	}
	if err := f.MkdirAll(c.recordDir); err != nil {
		return failError(err)
	}
	if err := f.Backup(); err != nil {
		return failf("keeping a backup: %v", err)
	}
	if err := f.Write(out); err != nil {
		return failError(err)
	}
	printDiff(std.out, f.Path, f.Data, out)
	fmt.Fprintf(stderr, "mcplens tap install: %s tapped (backup: %s); recordings go to %s\n", f.Path, f.BackupPath(), c.recordDir)
	return nil
}

// tapUninstallCommand is `mcplens tap uninstall CONFIG`: it undoes what tap
// install did to each tapped server, keeping every other edit made since.
// When the result is the backup's bytes, the backup is removed; otherwise
// it is kept, and said so.
type tapUninstallCommand struct{ path string }

func (c *tapUninstallCommand) parse(fset *flag.FlagSet, args []string) error {
	var err error
	c.path, err = oneConfig(fset, args, "usage: mcplens tap uninstall CONFIG\n\n"+
		"Undoes mcplens tap install: every tapped server of CONFIG runs its own command again.\n\n")
	return err
}

// Run untaps the config's servers.
func (c *tapUninstallCommand) Run(_ context.Context, std stdio) error {
	stderr := std.err
	f, doc, err := readForEdit(c.path)
	if err != nil {
		return usageError(err)
	}
	out, labels, err := doc.Untap()
	if err != nil {
		return failError(err)
	}
	if len(labels) == 0 {
		fmt.Fprintln(stderr, "mcplens tap uninstall: no server of this config runs through the tap")
		return nil
	}
	backup := f.BackupPath()
	orig, berr := edit.Read(backup)
	if err := f.Write(out); err != nil {
		return failError(err)
	}
	printDiff(std.out, f.Path, f.Data, out)
	switch {
	case berr == nil && bytes.Equal(out, orig.Data):
		os.Remove(backup)
		fmt.Fprintf(stderr, "mcplens tap uninstall: %s is as it was before the install\n", f.Path)
	case berr == nil:
		fmt.Fprintf(stderr, "mcplens tap uninstall: %s changed since the install, and keeps those changes; its bytes from just before the latest install are in %s\n", f.Path, backup)
	}
	return nil
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
