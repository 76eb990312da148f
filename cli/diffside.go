package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcplens/mcplens/capture"
	"github.com/mcplens/mcplens/internal/bounded"
	"github.com/mcplens/mcplens/internal/safefile"
	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
	"github.com/mcplens/mcplens/surfacediff"
)

// writeSnapshot writes check's snapshot document of snap, the settled
// servers of cfg, to path (safefile.Write: a file that is not a snapshot
// is not replaced).
func writeSnapshot(path string, cfg *config.Config, snap *surface.Snapshot, o checkOptions) error {
	profiles, _ := parseProfiles(o.providers)
	data, err := surfacediff.Capture(cfg.Path, o.who.name(), snap, profiles).Marshal()
	if err != nil {
		return err
	}
	if err := safefile.Write(path, data, safefile.Options{Mine: surfacediff.IsSnapshot, Perm: 0o644}); err != nil {
		return fmt.Errorf("writing snapshot: %w", err)
	}
	return nil
}

// A side is one side of a diff: a config to connect to (cfg set), or a
// document read from a snapshot, a lock file or a tap's recording (doc
// set).
type side struct {
	// name is how the diff names the side: its path, or REF:PATH.
	name string
	cfg  *config.Config
	doc  *surfacediff.Document
	// snap is a recording's servers, as the client named client saw them:
	// documents makes its document under the policies compared only.
	snap   *surface.Snapshot
	client string
	// skipped says which lines of a recording were over the line limit
	// and left out.
	skipped error
}

// loadSide reads the file at path: a tap's recording (the servers it shows
// as the recorded client saw them, with o's provider verdicts, read line by
// line), a snapshot document or a lock (definitions only), read whole
// within the document limit, or else a config in any format
// (o.configFormat, "" to detect it), at most max bytes.
func loadSide(name, path string, o diffOptions, max int64) (side, error) {
	if capture.IsRecording(path) {
		return recordingSide(name, path, o)
	}
	configFormat := o.configFormat
	whole, limit := o.limits.WithDefaults().Document, "document"
	if max > whole {
		whole, limit = max, "config"
	}
	data, err := bounded.ReadFile(path, whole, limit)
	if err != nil {
		return side{}, fmt.Errorf("reading %s: %w", name, err)
	}
	switch {
	case surfacediff.IsSnapshot(data):
		doc, err := surfacediff.Parse(data)
		if err != nil {
			return side{}, fmt.Errorf("%s: %w", name, err)
		}
		return side{name: name, doc: doc}, nil
	case isLock(data):
		l, err := model.ParseLock(data)
		if err != nil {
			return side{}, fmt.Errorf("%s: %w", name, err)
		}
		return side{name: name, doc: surfacediff.FromLock(name, l)}, nil
	}
	cfg, err := config.LoadWith(path, config.Options{Format: configFormat, MaxSize: max})
	if err != nil {
		return side{}, err
	}
	return side{name: name, cfg: cfg}, nil
}

// recordingSide is the side of the recording at path: its servers, none
// started, as offline check opens them (captureSnapshot), taken as the
// client whose clientInfo it shows when a profile sends it.
func recordingSide(name, path string, o diffOptions) (side, error) {
	c, err := capture.Read(capture.ReadOptions{Lines: o.limits.Lines()}, path)
	if err != nil {
		return side{}, fmt.Errorf("%s: %w", name, err)
	}

	client := ""
	if _, profile, ok := c.Client(); ok {
		client = profile.Key()
	}
	return side{name: name, snap: captureSnapshot(c), client: client, skipped: c.Skipped}, nil
}

// isLock reports whether data reads as a lock file: an object with a
// numbered version and an object of servers (a config has no version).
func isLock(data []byte) bool {
	var head struct {
		Version *int                       `json:"version"`
		Servers map[string]json.RawMessage `json:"servers"`
	}
	return json.Unmarshal(data, &head) == nil && head.Version != nil && head.Servers != nil
}

// errAbsent says that the file does not exist at the ref: a config the
// change adds.
var errAbsent = errors.New("not in the ref")

// gitFile writes the file at path as committed at ref (`git show
// COMMIT:./PATH`, run in the file's folder) to a new temporary folder,
// under the same name and in a folder named as its own (".vscode/mcp.json"
// stays one, so its format is detected alike). It returns the copy's path
// and the folder to remove.
//
// The ref is first resolved to a commit (`git rev-parse --verify
// --end-of-options REF^{commit}`), so that git never reads it as an
// option ("--output=FILE" would have git show write a file), and only the
// commit's id reaches git show.
func gitFile(ctx context.Context, ref, path string, max int64) (copyPath, dir string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	if err := checkGitPath(abs); err != nil {
		return "", "", fmt.Errorf("--git %s: %w", model.Sanitize(path), err)
	}
	git := func(args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = filepath.Dir(abs)
		return cmd
	}
	id, err := git("rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}").Output()
	commit := strings.TrimSpace(string(id))
	if err != nil || !isObjectID(commit) {
		return "", "", fmt.Errorf("--git %s: not a commit of the repository holding %s", model.Sanitize(ref), model.Sanitize(path))
	}
	object := commit + ":./" + filepath.Base(abs)
	// A commit without the file: the file is new since.
	if git("cat-file", "-e", object).Run() != nil {
		return "", "", errAbsent
	}
	cmd := git("show", object)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := boundedOutput(cmd, max)
	if err != nil && errors.Is(err, bounded.ErrLimit) {
		return "", "", fmt.Errorf("reading %s at %s: %w", path, ref, err)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", "", fmt.Errorf("reading %s at %s with git show: %s", path, ref, model.Sanitize(msg))
	}
	dir, err = os.MkdirTemp("", "mcplens-diff-")
	if err != nil {
		return "", "", err
	}
	folder := filepath.Join(dir, filepath.Base(filepath.Dir(abs)))
	if err := os.Mkdir(folder, 0o700); err != nil {
		os.RemoveAll(dir)
		return "", "", err
	}
	copyPath = filepath.Join(folder, filepath.Base(abs))
	if err := os.WriteFile(copyPath, out, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", "", err
	}
	return copyPath, dir, nil
}

// checkGitPath refuses a path git could not name as a file of a commit: a
// folder, or a path holding a control byte.
func checkGitPath(abs string) error {
	if strings.ContainsFunc(abs, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return errors.New("a path with a control character")
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return errors.New("a folder; want a file's path")
	}
	return nil
}

// isObjectID reports whether s is a git object id (SHA-1 or SHA-256, in
// hex), as rev-parse prints one.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') })
}

// boundedOutput runs cmd and returns its stdout, reading no more than max
// bytes of it: a blob over max stops the command, and is a *LimitError.
func boundedOutput(cmd *exec.Cmd, max int64) ([]byte, error) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	out, rerr := io.ReadAll(io.LimitReader(stdout, max+1))
	if int64(len(out)) > max {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, &bounded.LimitError{Limit: "config", Max: max, What: "the file"}
	}
	if err := cmd.Wait(); err != nil {
		return nil, err
	}
	return out, rerr
}

// splitGit reads --git REF[:PATH]: a ref alone, or a ref and a path. A
// colon inside a ref ("HEAD~1") never appears, so the first one splits.
func splitGit(spec string) (ref, path string, err error) {
	ref, path, _ = strings.Cut(spec, ":")
	if ref == "" {
		return "", "", errors.New("--git wants REF or REF:PATH")
	}
	return ref, path, nil
}

// documents captures the document of a config side once per handshake
// (one per connection, or o.who's alone), connecting to its servers;
// a document side is its document. settled reports whether every server
// settled; err says why not. closeAll shuts the servers down (settleEach).
func (s side) documents(ctx context.Context, o diffOptions, conns []connection) (docs []*surfacediff.Document, settled bool, closeAll func() error, err error) {
	if s.doc != nil {
		return []*surfacediff.Document{s.doc}, true, func() error { return nil }, nil
	}
	profiles, _ := parseProfiles(o.providers)
	if s.snap != nil {
		return []*surfacediff.Document{surfacediff.CaptureUnder(s.name, s.client, s.snap, profiles, o.policies)}, true, func() error { return nil }, nil
	}
	var handshakes []model.Handshake
	names := []string{o.who.name()}
	if len(conns) > 0 {
		names = nil
		for _, c := range conns {
			handshakes = append(handshakes, c.handshake)
			names = append(names, strings.Join(c.clients, ", "))
		}
	}
	snaps, settled, closeAll, err := settle.Each(ctx, s.cfg, o.who.session(s.cfg, loader.Options{Timeout: o.timeout, Limits: o.limits}), handshakes, o.timeout)
	if errors.Is(err, settle.ErrInterrupted) {
		return nil, false, closeAll, err
	}
	docs = make([]*surfacediff.Document, len(snaps))
	for i, snap := range snaps {
		docs[i] = surfacediff.CaptureUnder(s.name, names[i], snap, profiles, o.policies)
	}
	return docs, settled, closeAll, err
}
