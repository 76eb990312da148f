package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/loader/demo"
	"github.com/mcplens/mcplens/report"
)

// TestAdHocInterface: `mcplens -- CMD ARGS` opens one server without a
// config (piped, the check report says so), named by --server; the old
// --format still reads the config's format, with a warning.
func TestAdHocInterface(t *testing.T) {
	bin := build(t, "..")
	cmd := exec.Command(bin, "--server", "solo", "--format", "cursor", "--", bin, demo.Subcommand, "alpha")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcplens -- %s: %v\n%s%s", bin, err, out.String(), errb.String())
	}
	if !strings.HasPrefix(out.String(), "mcplens check · command line\n") || !strings.Contains(out.String(), "solo") {
		t.Errorf("piped stdout is not the report on server solo:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), "--format is deprecated here") {
		t.Errorf("no deprecation warning for --format:\n%s", errb.String())
	}
}

// TestCheckAdHoc: check takes a server on the command line too.
func TestCheckAdHoc(t *testing.T) {
	code, out, errb := runChecked(t, "--format", "json", "--", os.Args[0], demo.Subcommand, "beta")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errb)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Config != "command line" || len(r.Servers) != 1 || r.Servers[0].Status != "ok" || r.Servers[0].Advertised == 0 {
		t.Errorf("check -- demo beta: config %q, servers %+v; want one server, ok, with tools", r.Config, r.Servers)
	}
}
