package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/relay"
)

// backupSuffix names the copy of a config's bytes tap install keeps.
const backupSuffix = ".mcplens-tap.bak"

// labelList is a repeatable --server flag.
type labelList []string

func (l *labelList) String() string     { return strings.Join(*l, ",") }
func (l *labelList) Set(s string) error { *l = append(*l, s); return nil }

// runTapInstall is `mcplens tap install CONFIG [--server LABEL]...`: it
// rewrites the config so that each chosen stdio server (every one by
// default) runs through `mcplens tap`, recording to RECORD-DIR/LABEL.jsonl;
// HTTP servers are skipped, with how to tap them. It keeps the file's
// bytes but for the servers' command and args, keeps a backup of the
// original (CONFIG.mcplens-tap.bak) and prints the diff. A server tapped
// already is left as it is, so installing twice changes nothing.
func runTapInstall(args []string, stdout, stderr io.Writer) int {
	var servers labelList
	fset := flag.NewFlagSet("mcplens tap install", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Var(&servers, "server", "tap only this server (repeatable; default: every stdio server)")
	recordDir := fset.String("record-dir", defaultRecordDir(), "where each server's recording goes, as LABEL.jsonl")
	exe := fset.String("mcplens", executable(), "the mcplens binary the client is to run")
	pos, code, ok := parseCommand(fset, args, stderr, "usage: mcplens tap install CONFIG [--server LABEL]... [--record-dir DIR] [--mcplens PATH]\n\n"+
		"Rewrites CONFIG so that each chosen stdio server runs through mcplens tap, keeping everything else byte for byte;\n"+
		"keeps a backup (CONFIG"+backupSuffix+") and prints the diff. Undo with mcplens tap uninstall CONFIG.\n\n")
	if !ok {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "mcplens tap install: want one config file")
		return exitUsage
	}
	path := pos[0]
	data, spans, toml, err := readForEdit(path)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitUsage
	}
	for _, label := range servers {
		if !slices.ContainsFunc(spans, func(sp serverSpan) bool { return sp.label == label }) {
			fmt.Fprintf(stderr, "mcplens tap install: %s has no server %q\n", path, model.Sanitize(label))
			return exitUsage
		}
	}
	var edits []edit
	for _, sp := range spans {
		switch {
		case len(servers) > 0 && !slices.Contains(servers, sp.label):
		case sp.why != "":
			fmt.Fprintf(stderr, "mcplens tap install: skipping %s: %s\n", model.Sanitize(sp.label), sp.why)
		case tapped(data, sp):
			fmt.Fprintf(stderr, "mcplens tap install: %s runs through the tap already\n", model.Sanitize(sp.label))
		default:
			record := filepath.Join(*recordDir, relay.FileName(sp.label)+".jsonl")
			edits = append(edits, tapEdits(data, sp, *exe, record, toml)...)
		}
	}
	if len(edits) == 0 {
		fmt.Fprintln(stderr, "mcplens tap install: nothing to change")
		return exitOK
	}
	out := apply(data, edits)
	if err := checkEdited(out, data, toml); err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %s: the edit would not parse (%v); nothing written\n", path, err)
		return exitFound
	}
	if err := os.MkdirAll(*recordDir, 0o700); err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitFound
	}
	backup := path + backupSuffix
	if _, err := os.Lstat(backup); errors.Is(err, fs.ErrNotExist) {
		if err := safefile.Write(backup, data, safefile.Options{Perm: 0o600}); err != nil {
			fmt.Fprintf(stderr, "mcplens tap install: keeping a backup: %v\n", err)
			return exitFound
		}
	}
	if err := safefile.Write(path, out, safefile.Options{Force: true}); err != nil {
		fmt.Fprintf(stderr, "mcplens tap install: %v\n", err)
		return exitFound
	}
	printDiff(stdout, path, data, out)
	fmt.Fprintf(stderr, "mcplens tap install: %s tapped (backup: %s); recordings go to %s\n", path, backup, *recordDir)
	return exitOK
}

// runTapUninstall is `mcplens tap uninstall CONFIG`: it undoes what tap
// install did to each tapped server. When nothing else changed since, the
// result is the original bytes, and the backup is removed; otherwise the
// backup is kept, and said so.
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
	path := pos[0]
	data, spans, toml, err := readForEdit(path)
	if err != nil {
		fmt.Fprintf(stderr, "mcplens tap uninstall: %v\n", err)
		return exitUsage
	}
	var edits []edit
	for _, sp := range spans {
		if sp.why != "" || !tapped(data, sp) {
			continue
		}
		e, err := untapEdits(data, sp, toml)
		if err != nil {
			fmt.Fprintf(stderr, "mcplens tap uninstall: %v\n", err)
			return exitFound
		}
		edits = append(edits, e...)
	}
	if len(edits) == 0 {
		fmt.Fprintln(stderr, "mcplens tap uninstall: no server of this config runs through the tap")
		return exitOK
	}
	out := apply(data, edits)
	backup := path + backupSuffix
	orig, berr := os.ReadFile(backup)
	if err := safefile.Write(path, out, safefile.Options{Force: true}); err != nil {
		fmt.Fprintf(stderr, "mcplens tap uninstall: %v\n", err)
		return exitFound
	}
	printDiff(stdout, path, data, out)
	switch {
	case berr == nil && bytes.Equal(out, orig):
		os.Remove(backup)
		fmt.Fprintf(stderr, "mcplens tap uninstall: %s is as it was before the install\n", path)
	case berr == nil:
		fmt.Fprintf(stderr, "mcplens tap uninstall: %s changed since the install; its bytes then are kept in %s\n", path, backup)
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

// readForEdit reads the config at path and finds its servers. It refuses
// a file mcplens cannot read as a config, and a symbolic link (writing
// would replace the link, not its target).
func readForEdit(path string) (data []byte, spans []serverSpan, toml bool, err error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, false, fmt.Errorf("%s is a symbolic link: give its target", path)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, nil, false, fmt.Errorf("refusing to edit a config mcplens cannot read: %w", err)
	}
	key, toml, ok := config.ServersKey(cfg.Format)
	if !ok {
		return nil, nil, false, fmt.Errorf("%s: unknown format %q", path, cfg.Format)
	}
	if data, err = os.ReadFile(path); err != nil {
		return nil, nil, false, err
	}
	if toml {
		return data, tomlSpans(data, key), true, nil
	}
	spans, err = jsonSpans(data, key)
	return data, spans, false, err
}

// checkEdited reports why out, the edit of orig, does not parse as orig
// did: strict JSON stays strict.
func checkEdited(out, orig []byte, isTOML bool) error {
	if isTOML {
		var v map[string]any
		return toml.Unmarshal(out, &v)
	}
	if json.Valid(orig) && !json.Valid(out) {
		return errors.New("not valid JSON")
	}
	_, err := hujson.Parse(out)
	return err
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
