package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/mcplens/mcplens/loader"
	"github.com/mcplens/mcplens/loader/config"
)

// configWith loads the config at path as opts say, or the demo's when path
// is empty.
func configWith(path string, opts config.Options) (*config.Config, error) {
	if path == "" {
		return demoConfig()
	}
	return config.LoadWith(path, opts)
}

// formatNames lists the config formats --format accepts.
func formatNames() string {
	var names []string
	for _, f := range config.Formats() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// runLocate serves --discover: it prints the config files located for the
// current directory and the user, with their format and servers, starting
// nothing. Each file is read within limits (Limits.Config).
func runLocate(stdout io.Writer, limits loader.Limits) error {
	wd, err := os.Getwd()
	if err != nil {
		return failError(err)
	}
	home, _ := os.UserHomeDir()
	found := config.Locate(wd, home, config.Options{MaxSize: limits.WithDefaults().Config})
	if len(found) == 0 {
		fmt.Fprintf(stdout, "no MCP client config found in %s, the folders above it, or %s\n", wd, home)
		return nil
	}
	show := func(p string) string {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
		if home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
			return "~" + p[len(home):]
		}
		return p
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	scope := ""
	for _, f := range found {
		if f.Scope != scope {
			scope = f.Scope
			fmt.Fprintf(tw, "%s:\n", scope)
		}
		if f.Err != nil {
			fmt.Fprintf(tw, "  %s\t\t%v\n", show(f.Path), f.Err)
			continue
		}
		var labels []string
		for _, s := range f.Config.Servers {
			labels = append(labels, s.Label)
		}
		line := fmt.Sprintf("  %s\t%s\t%d server(s): %s", show(f.Path), f.Config.Format, len(labels), strings.Join(labels, ", "))
		for _, note := range f.Config.Findings {
			line += "; " + note
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nopen one with: mcplens PATH\n")
	return nil
}
