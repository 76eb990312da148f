package procguard

import (
	"strings"
	"testing"
)

// TestResolveWindows: the rule a Windows machine runs servers by, checked
// here against a set of files: npx is npx.cmd through PATHEXT, run through
// cmd.exe with a path and arguments holding spaces quoted whole; a program
// is run as it is; what cmd.exe would read as code is refused.
func TestResolveWindows(t *testing.T) {
	files := map[string]bool{
		`C:\Program Files\nodejs\npx.cmd`:  true,
		`C:\Program Files\nodejs\node.exe`: true,
		`C:\tools\uvx.exe`:                 true,
		`C:\tools\uvx.cmd`:                 true, // .exe comes first in PATHEXT
		`D:\my servers\run.bat`:            true,
		`C:\bin\python`:                    true, // no extension: not a program
	}
	env := map[string]string{
		"PATH":    `C:\Windows\system32;"C:\Program Files\nodejs";;C:\tools\;C:\bin`,
		"PATHEXT": `.COM;.EXE;.BAT;.CMD`,
		"ComSpec": `C:\Windows\system32\cmd.exe`,
	}
	tests := []struct {
		name string
		args []string
		want Launch
		err  string
	}{
		{"npx", []string{"-y", "@modelcontextprotocol/server-filesystem", `C:\Users\Ann Lee\My Docs\`},
			Launch{Path: `C:\Windows\system32\cmd.exe`, CmdLine: `"C:\Windows\system32\cmd.exe" /d /s /v:off /c ""C:\Program Files\nodejs\npx.cmd" "-y" "@modelcontextprotocol/server-filesystem" "C:\Users\Ann Lee\My Docs\\""`}, ""},
		{"NPX.CMD", nil, Launch{Path: `C:\Windows\system32\cmd.exe`, CmdLine: `"C:\Windows\system32\cmd.exe" /d /s /v:off /c ""C:\Program Files\nodejs\NPX.CMD""`}, ""},
		{"node", []string{"server.js", "a & b"}, Launch{Path: `C:\Program Files\nodejs\node.exe`, Args: []string{"server.js", "a & b"}}, ""},
		{"uvx", []string{"mcp-server-git"}, Launch{Path: `C:\tools\uvx.exe`, Args: []string{"mcp-server-git"}}, ""},
		{`D:\my servers\run`, []string{"x"}, Launch{Path: `C:\Windows\system32\cmd.exe`, CmdLine: `"C:\Windows\system32\cmd.exe" /d /s /v:off /c ""D:\my servers\run.bat" "x""`}, ""},
		{"npx", []string{"%USERPROFILE%"}, Launch{}, "cmd.exe would interpret"},
		{"npx", []string{`say "hi"`}, Launch{}, "cmd.exe would interpret"},
		{"npx", []string{"a\r\nb"}, Launch{}, "cmd.exe would interpret"},
		{"python", nil, Launch{}, "not found in PATH"},
		{"missing", nil, Launch{}, "not found in PATH"},
	}
	// Windows's file names are case-insensitive.
	isFile := func(p string) bool {
		for f := range files {
			if strings.EqualFold(f, p) {
				return true
			}
		}
		return false
	}
	for _, tt := range tests {
		got, err := Resolve("windows", tt.name, tt.args, func(k string) string { return env[k] }, isFile)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Resolve(%q, %q) = %+v, %v; want an error saying %q", tt.name, tt.args, got, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("Resolve(%q, %q): %v", tt.name, tt.args, err)
		case tt.err == "" && (got.Path != tt.want.Path || got.CmdLine != tt.want.CmdLine || strings.Join(got.Args, "\x00") != strings.Join(tt.want.Args, "\x00")):
			t.Errorf("Resolve(%q, %q) =\n%+v\nwant\n%+v", tt.name, tt.args, got, tt.want)
		}
	}
	// Without PATHEXT, Windows's default extensions; without ComSpec, cmd.exe
	// in System32.
	got, err := Resolve("windows", "npx", nil, func(k string) string {
		if k == "PATH" {
			return `C:\Program Files\nodejs`
		}
		return ""
	}, isFile)
	if err != nil || got.CmdLine != `"C:\Windows\System32\cmd.exe" /d /s /v:off /c ""C:\Program Files\nodejs\npx.cmd""` {
		t.Errorf("Resolve without PATHEXT or ComSpec = %+v, %v", got, err)
	}
}

// TestResolveUnix: on macOS and Linux the name is left to exec.LookPath,
// and nothing is looked up or refused.
func TestResolveUnix(t *testing.T) {
	for _, goos := range []string{"darwin", "linux"} {
		got, err := Resolve(goos, "npx", []string{"%x%", `"q"`}, func(string) string { t.Fatal("the environment was read"); return "" },
			func(string) bool { t.Fatal("a file was looked for"); return false })
		if err != nil || got.Path != "npx" || got.CmdLine != "" || strings.Join(got.Args, " ") != `%x% "q"` {
			t.Errorf("Resolve(%s) = %+v, %v", goos, got, err)
		}
	}
}
