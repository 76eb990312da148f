package procguard

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// A Launch is how a server's command runs: the program started, its
// arguments, and on Windows the command line given as is (CmdLine, "" for
// one built from Args).
type Launch struct {
	Path    string
	Args    []string // after Path
	CmdLine string
}

// Command returns the command that runs name with args as an MCP client
// would run it on this machine: on Windows `npx` is found as npx.cmd
// through PATHEXT and a batch file runs through cmd.exe with its path and
// arguments quoted (a path with spaces works); elsewhere name is found as
// exec.LookPath finds it. Start keeps the command line.
func Command(name string, args ...string) (*exec.Cmd, error) {
	l, err := Resolve(runtime.GOOS, name, args, os.Getenv, isFile)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(l.Path, l.Args...)
	setCmdLine(cmd, l.CmdLine)
	return cmd, nil
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// Resolve is the platform's rule for running name with args, given the
// environment (getenv: PATH, PATHEXT, ComSpec) and which paths name a
// file. On every system but Windows it leaves name to exec.LookPath. On
// Windows, a name without a path is looked for in each folder of PATH
// (not in the current folder), with each extension of PATHEXT unless it
// has one of them already (`npx` is npx.cmd); a batch file (.cmd, .bat)
// runs as `cmd.exe /d /s /v:off /c ""path" "arg"..."`, which keeps
// spaces in the path and the arguments. cmd.exe expands %VAR% even
// between quotes and cannot be given a quote inside one, so an argument
// holding '%', '"' or a line break is refused rather than passed where
// cmd.exe would read it as code. Resolve reads no file itself.
func Resolve(goos, name string, args []string, getenv func(string) string, isFile func(string) bool) (Launch, error) {
	if goos != "windows" {
		return Launch{Path: name, Args: args}, nil
	}
	path, ok := lookWindows(name, getenv("PATH"), getenv("PATHEXT"), isFile)
	if !ok {
		return Launch{}, fmt.Errorf("%s: not found in PATH (with the extensions of PATHEXT)", name)
	}
	ext := strings.ToLower(path[strings.LastIndexByte(path, '.')+1:])
	if ext != "cmd" && ext != "bat" {
		return Launch{Path: path, Args: args}, nil
	}
	comspec := getenv("ComSpec")
	if comspec == "" {
		comspec = `C:\Windows\System32\cmd.exe`
	}
	line := []string{quoteCmd(path)}
	for _, a := range args {
		if strings.ContainsAny(a, "%\"\r\n\x00") {
			return Launch{}, fmt.Errorf("%s is a batch file and the argument %q holds a character cmd.exe would interpret (%%, \", a line break): run the program it starts instead", path, a)
		}
		line = append(line, quoteCmd(a))
	}
	return Launch{Path: comspec, CmdLine: quoteCmd(comspec) + ` /d /s /v:off /c "` + strings.Join(line, " ") + `"`}, nil
}

// quoteCmd quotes s for cmd.exe and then for the program's own parsing of
// its command line: between quotes cmd.exe takes & | < > ( ) ^ as they
// are, and backslashes before the closing quote are doubled so that the C
// runtime does not read it as an escaped quote.
func quoteCmd(s string) string {
	trailing := len(s) - len(strings.TrimRight(s, `\`))
	return `"` + s + strings.Repeat(`\`, trailing) + `"`
}

// lookWindows finds name as Windows programs are found: a path is tried as
// it is when its extension is in PATHEXT, then with each extension; a bare
// name is tried so in each folder of PATH.
func lookWindows(name, path, pathext string, isFile func(string) bool) (string, bool) {
	var exts []string
	for _, e := range strings.Split(strings.ToLower(pathext), ";") {
		if strings.HasPrefix(e, ".") {
			exts = append(exts, e)
		}
	}
	if len(exts) == 0 {
		exts = []string{".com", ".exe", ".bat", ".cmd"}
	}
	try := func(p string) (string, bool) {
		lower := strings.ToLower(p)
		for _, e := range exts {
			if strings.HasSuffix(lower, e) && isFile(p) {
				return p, true
			}
		}
		for _, e := range exts {
			if isFile(p + e) {
				return p + e, true
			}
		}
		return "", false
	}
	if strings.ContainsAny(name, `\/:`) {
		return try(name)
	}
	for _, dir := range strings.Split(path, ";") {
		dir = strings.Trim(dir, `"`)
		if dir == "" {
			continue
		}
		if !strings.HasSuffix(dir, `\`) && !strings.HasSuffix(dir, "/") {
			dir += `\`
		}
		if p, ok := try(dir + name); ok {
			return p, true
		}
	}
	return "", false
}
