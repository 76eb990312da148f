//go:build unix

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/report"
	"github.com/mcplens/mcplens/surface"
	"github.com/mcplens/mcplens/surface/settle"
)

// gatedConfig writes a Claude Code config (.mcp.json) declaring servers
// (label → JSON object) and returns its path.
func gatedConfig(t *testing.T, servers map[string]string) string {
	t.Helper()
	var members []string
	for label, obj := range servers {
		members = append(members, `"`+label+`": `+obj)
	}
	slices.Sort(members)
	path := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`+strings.Join(members, ", ")+`}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startGatedHTTP runs the gated server over streamable HTTP on a loopback
// port and returns its URL; it is killed when the test ends.
func startGatedHTTP(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(build(t, "../testdata/servers/gated"), "-http", "127.0.0.1:0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the gated server said no URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// checkJSON runs check with args and the JSON format, and parses the report.
func checkJSON(t *testing.T, args ...string) *report.Report {
	t.Helper()
	code, out, errb := runChecked(t, append(args, "--format", "json", "--fail-on", "never")...)
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitOK {
		t.Fatalf("check %s: exit %d, %v\n%s%s", strings.Join(args, " "), code, err, out, errb)
	}
	return &r
}

// gatedOf returns the gated-tool entry for server's tool, and the
// finding that says it.
func gatedOf(r *report.Report, server, tool string) (surface.GatedTool, report.Finding, bool) {
	i := slices.IndexFunc(r.Gated, func(g surface.GatedTool) bool { return g.Server == server && g.Tool == tool })
	j := slices.IndexFunc(r.Findings, func(f report.Finding) bool {
		return f.Kind == "gated-tool" && f.Server == server && f.Tool == tool
	})
	if i < 0 || j < 0 {
		return surface.GatedTool{}, report.Finding{}, false
	}
	return r.Gated[i], r.Findings[j], true
}

// TestCheckClientsGated: check --clients connects once per distinct
// handshake and names, for each tool only some clients are shown, the
// clients on each side; over real stdio and real streamable HTTP.
func TestCheckClientsGated(t *testing.T) {
	bin := build(t, "../testdata/servers/gated")
	url := startGatedHTTP(t)
	path := gatedConfig(t, map[string]string{
		"stdio": `{"command": "` + bin + `"}`,
		"web":   `{"type": "http", "url": "` + url + `", "headers": {"X-MCP-Toolsets": "issues"}}`,
	})
	// qwen sends mcplens's own handshake: it shares mcplens's connection.
	r := checkJSON(t, path, "--clients", "claude-code,cursor,mcplens,qwen")
	if want := []string{"claude-code@2.1", "cursor@1.7", "mcplens (neutral)"}; !slices.Equal(r.Clients, want) {
		t.Errorf("clients = %q, want %q", r.Clients, want)
	}
	if r.Client != "claude-code@2.1" || r.Policy != "claude-code" {
		t.Errorf("the report is for %q under %s, want the first client's", r.Client, r.Policy)
	}
	tests := []struct {
		tool      string
		to, notTo []string
	}{
		{"claude_only", []string{"claude-code@2.1"}, []string{"cursor@1.7", "mcplens (neutral)"}},
		{"elicit_only", []string{"claude-code@2.1", "cursor@1.7"}, []string{"mcplens (neutral)"}},
	}
	for _, server := range []string{"stdio", "web"} {
		for _, tt := range tests {
			g, f, ok := gatedOf(r, server, tt.tool)
			if !ok {
				t.Errorf("%s: no gated-tool %s in %+v", server, tt.tool, r.Gated)
				continue
			}
			if !slices.Equal(g.To, tt.to) || !slices.Equal(g.NotTo, tt.notTo) {
				t.Errorf("%s %s: advertised to %q, not to %q; want %q, %q", server, tt.tool, g.To, g.NotTo, tt.to, tt.notTo)
			}
			want := `tool "` + tt.tool + `" on ` + server + " is advertised to " + strings.Join(tt.to, ", ") + " but not to " + strings.Join(tt.notTo, ", ")
			if f.Evidence != want || f.Severity != report.Warning {
				t.Errorf("%s %s: finding %s %q, want warning %q", server, tt.tool, f.Severity, f.Evidence, want)
			}
		}
		for _, tool := range []string{"search", "toolset_issues"} {
			if _, _, ok := gatedOf(r, server, tool); ok {
				t.Errorf("%s: %s, shown to every client, reported as gated", server, tool)
			}
		}
	}
	for format, want := range map[string]string{
		"text":     `tool "claude_only" on stdio is advertised to claude-code@2.1 but not to cursor@1.7, mcplens (neutral)`,
		"markdown": "Clients compared (one connection each): `claude-code@2.1` · `cursor@1.7` · `mcplens (neutral)`",
	} {
		if _, out, _ := runChecked(t, path, "--clients", "claude-code,cursor,mcplens", "--format", format, "--fail-on", "never"); !strings.Contains(out, want) {
			t.Errorf("check --clients --format %s lacks %q:\n%s", format, want, out)
		}
	}
	for _, args := range [][]string{
		{"--clients", "claude-code"},
		{"--clients", "claude-code,emacs"},
		{"--clients", "all", "--client", "vscode"},
	} {
		if code, _, errb := runChecked(t, append([]string{path}, args...)...); code != exitUsage {
			t.Errorf("check %s: exit %d, want a usage error; %s", strings.Join(args, " "), code, errb)
		}
	}
}

// TestGatedByHeader: a server that picks tools by a header (GitHub's
// X-MCP-Toolsets) shows clients that send different fixed headers
// different tools, over real streamable HTTP.
func TestGatedByHeader(t *testing.T) {
	url := startGatedHTTP(t)
	cfg, err := config.Load(gatedConfig(t, map[string]string{"web": `{"type": "http", "url": "` + url + `"}`}))
	if err != nil {
		t.Fatal(err)
	}
	issues, repos := model.NeutralHandshake(), model.NeutralHandshake()
	issues.Headers = []model.Header{{Name: "X-MCP-Toolsets", Value: "issues"}}
	repos.Headers = []model.Header{{Name: "X-MCP-Toolsets", Value: "repos,issues"}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	snaps, settled, closeAll, err := settle.Each(ctx, cfg, loader.Options{}, []model.Handshake{issues, repos}, 0)
	if !settled || err != nil {
		t.Fatalf("settleEach: settled %v, %v", settled, err)
	}
	if err := closeAll(); err != nil {
		t.Errorf("closing the sessions: %v", err)
	}
	got := gated([]connection{{clients: []string{"issues"}}, {clients: []string{"repos"}}}, snaps)
	want := []surface.GatedTool{{Server: "web", Tool: "toolset_repos", To: []string{"repos"}, NotTo: []string{"issues"}}}
	if len(got) != 1 || got[0].Tool != want[0].Tool || !slices.Equal(got[0].To, want[0].To) || !slices.Equal(got[0].NotTo, want[0].NotTo) {
		t.Errorf("gated = %+v, want %+v", got, want)
	}
}

// TestConfigClient: a config in a profiled client's format opens as that
// client, and the report says why; --client mcplens and --policy keep
// mcplens's own handshake.
func TestConfigClient(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".vscode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mcp.json")
	body := `{"servers": {"gated": {"type": "stdio", "command": "` + build(t, "../testdata/servers/gated") + `"}}}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		args           []string
		client, policy string
		elicits        bool // vscode declares elicitation: the server shows elicit_only
	}{
		{"the config's client", nil, "vscode@1.105", "vscode", true},
		{"neutral", []string{"--client", "mcplens"}, "", "lionagi-legacy", false},
		{"none", []string{"--client", "none"}, "", "lionagi-legacy", false},
		{"a policy", []string{"--policy", "qwen"}, "", "qwen", false},
		{"another client", []string{"--client", "claude-code"}, "claude-code@2.1", "claude-code", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checkJSON(t, append([]string{path}, tt.args...)...)
			if r.Client != tt.client || r.Policy != tt.policy {
				t.Errorf("client %q, policy %q; want %q, %q", r.Client, r.Policy, tt.client, tt.policy)
			}
			if adopted := r.ClientSource != ""; adopted != (tt.args == nil) {
				t.Errorf("client source %q", r.ClientSource)
			}
			elicits := len(r.Servers) == 1 && slices.ContainsFunc(r.Servers[0].Tools, func(tl report.Tool) bool { return tl.Wire == "elicit_only" })
			if elicits != tt.elicits {
				t.Errorf("elicit_only listed: %v, want %v", elicits, tt.elicits)
			}
		})
	}
	if _, out, _ := runChecked(t, path, "--fail-on", "never"); !strings.Contains(out, "client vscode@1.105 (the config is in vscode's format; --client mcplens connects as mcplens)") {
		t.Errorf("the text report does not say why it is vscode:\n%s", out)
	}
}

// TestServerFacts: a server's title, website, capabilities and
// instructions reach check's report.
func TestServerFacts(t *testing.T) {
	path := gatedConfig(t, map[string]string{"gated": `{"command": "` + build(t, "../testdata/servers/gated") + `"}`})
	r := checkJSON(t, path)
	s := r.Servers[0]
	if s.ServerInfo.Title != "Gated Test Server" || s.ServerInfo.Website != "https://example.test/gated" ||
		!slices.Equal(s.Capabilities, []string{"tools", "logging"}) || !strings.HasPrefix(s.Instructions, "Tools depend on who asks.\n") {
		t.Errorf("server facts: %+v, capabilities %q, instructions %q", s.ServerInfo, s.Capabilities, s.Instructions)
	}
	if _, out, _ := runChecked(t, path, "--fail-on", "never"); !strings.Contains(out, "  instructions: Tools depend on who asks. Claude clients see") {
		t.Errorf("the text report lacks the instructions:\n%s", out)
	}
}

// TestCallConfigClient: call connects as the config's client, as check
// does: a VS Code config reaches elicit_only, which the gated server
// advertises only to a client that declares elicitation; --client mcplens
// connects neutral, and the name then resolves to nothing.
func TestCallConfigClient(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".vscode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mcp.json")
	body := `{"servers": {"gated": {"type": "stdio", "command": "` + build(t, "../testdata/servers/gated") + `"}}}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errb := runCalled(t, "", path, "elicit_only"); code != exitOK {
		t.Errorf("call elicit_only as the config's client (vscode): exit %d\n%s%s", code, out, errb)
	}
	if code, out, errb := runCalled(t, "", path, "elicit_only", "--client", "mcplens"); code != exitUsage {
		t.Errorf("call elicit_only as mcplens: exit %d, want %d (no route)\n%s%s", code, exitUsage, out, errb)
	}
}
