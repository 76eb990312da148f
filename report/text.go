package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// writeText renders the report for a terminal or a CI log: a header, one
// table per server, the collisions, then every finding. Every string that
// came from a server or a config goes through model.Sanitize.
func writeText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	san := model.Sanitize
	fmt.Fprintf(bw, "mcplens check · %s\n", san(r.Config))
	if r.Client != "" {
		line := "client " + r.Client
		if r.ClientSource != "" {
			line += " (" + r.ClientSource + ")"
		}
		bw.WriteString(line + "\n")
	}
	if len(r.Clients) > 0 {
		fmt.Fprintf(bw, "clients compared (one connection each): %s\n", strings.Join(r.Clients, " | "))
	}
	fmt.Fprintf(bw, "policy %s (%s) · providers %s\n", r.Policy, r.PolicySummary, orNone(strings.Join(r.Providers, ", ")))
	if r.Lock != nil {
		line := "lock " + san(r.Lock.Path)
		if r.Lock.Updated {
			line += " (updated: the changes below are accepted)"
		}
		bw.WriteString(line + "\n")
	}
	for _, s := range r.Servers {
		bw.WriteString("\n")
		writeTextServer(bw, r, s)
	}
	if len(r.Collisions) > 0 {
		fmt.Fprintf(bw, "\nCOLLISIONS (%d): names claimed by more than one row\n", len(r.Collisions))
		for _, c := range r.Collisions {
			fmt.Fprintf(bw, "  %s  %s\n", san(c.Name), c.Class)
			for _, cl := range c.Claims {
				verdict := "lost"
				if cl.Won {
					verdict = "won "
				}
				fmt.Fprintf(bw, "    %s  %s · %s  %s\n", verdict, san(cl.Server), san(cl.Wire), cl.Outcome)
			}
		}
	}
	fmt.Fprintf(bw, "\nFINDINGS: %s\n", countLine(r))
	if len(r.Findings) == 0 {
		bw.WriteString("  none\n")
	} else {
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  LEVEL\tKIND\tSERVER\tTOOL\tEVIDENCE")
		for _, f := range r.Findings {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.Severity, f.Kind, san(f.Server), orDash(san(f.Tool)), san(f.Evidence))
		}
		tw.Flush()
	}
	return bw.Flush()
}

func writeTextServer(bw *bufio.Writer, r *Report, s Server) {
	san := model.Sanitize
	head := statusMark(s.Status) + " " + san(s.Label) + "  " + s.Status
	if listed(s.Status) {
		head += "  protocol " + orNone(san(settled(s)))
		if s.ServerInfo.Name != "" {
			head += " · " + san(strings.TrimSpace(s.ServerInfo.Name+" "+s.ServerInfo.Version))
		}
		head += fmt.Sprintf(" · advertised %d · registered %d", s.Advertised, s.Registered)
	}
	bw.WriteString(head + "\n")
	for _, f := range surface.Facts(s.facts(), factWidth, factLines) {
		label := f[0]
		if label != "" {
			label += ":"
		}
		fmt.Fprintf(bw, "  %-13s %s\n", label, f[1])
	}
	if s.Error != "" {
		fmt.Fprintf(bw, "  error: %s\n", san(s.Error))
	}
	for _, l := range strings.Split(strings.TrimRight(s.Stderr, "\n"), "\n") {
		if l != "" {
			fmt.Fprintf(bw, "  stderr: %s\n", san(l))
		}
	}
	for _, n := range s.Notes {
		fmt.Fprintf(bw, "  note: %s\n", san(n))
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(bw, "  missing: %s\n", sanJoin(s.Missing))
	}
	if l := s.Lock; l != nil {
		line := "  lock: " + l.Status
		if l.Endpoint != nil {
			line += fmt.Sprintf("; transport was %s, now %s", san(l.Endpoint.Old), san(l.Endpoint.New))
		}
		bw.WriteString(line + "\n")
		for _, c := range l.Changes {
			fmt.Fprintf(bw, "    %s %s\n", san(c.Wire), c.Change)
			for _, f := range c.Fields {
				fmt.Fprintf(bw, "      %s\n", san(fieldLine(f)))
			}
		}
	}
	writeTextOffers(bw, s)
	if !listed(s.Status) {
		return
	}
	if len(s.Tools) == 0 {
		bw.WriteString("  advertises no tools\n")
		return
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	head = "  WIRE NAME\tREGISTERED AS\tOUTCOME"
	for _, p := range r.Providers {
		head += "\t" + strings.ToUpper(p)
	}
	if s.Lock != nil {
		head += "\tLOCK"
	}
	fmt.Fprintln(tw, head+"\tREASON")
	for _, t := range s.Tools {
		row := "  " + san(wireCell(t)) + "\t" + orDash(san(t.RegisteredAs)) + "\t" + t.Outcome
		for _, p := range r.Providers {
			row += "\t" + checkMark(t, p)
		}
		if s.Lock != nil {
			row += "\t" + orDash(t.Lock)
		}
		if t.Reason != "" {
			row += "\t" + san(t.Reason) // no empty last cell: no trailing blanks
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
}

// fieldLine is one field change as a line.
func fieldLine(f FieldChange) string {
	switch f.Op {
	case "added":
		return f.Path + " added: " + jsonText(f.New)
	case "removed":
		return f.Path + " removed: " + jsonText(f.Old)
	}
	return f.Path + " changed: " + jsonText(f.Old) + " → " + jsonText(f.New)
}

// statusMark is the symbol the interface uses for a server's status.
// listed reports whether a server of this status listed its tools, and so
// has rows to show.
func listed(status string) bool {
	switch surface.Status(status) {
	case surface.OK, surface.Incomplete, surface.PolicyFailed:
		return true
	}
	return false
}

func statusMark(status string) string {
	switch status {
	case "ok":
		return "●"
	case "incomplete":
		return "▲"
	case "failed", "failed by policy":
		return "✗"
	case "needs login":
		return "!"
	}
	return "○"
}

// checkMark is a provider's verdict on a row: ✓ pass, ! warn, ✗ fail, -
// when the row has no registered name.
func checkMark(t Tool, provider string) string {
	for _, c := range t.Checks {
		if c.Provider != provider {
			continue
		}
		switch c.Severity {
		case "pass":
			return "✓"
		case "warn":
			return "!"
		}
		return "✗"
	}
	return "-"
}

// wireCell is a row's wire name, or what is wrong with it.
func wireCell(t Tool) string {
	if t.Wire != "" {
		return t.Wire
	}
	return fmt.Sprintf("(row %d: %s)", t.Index, orNone(t.NameProblem))
}

// countLine is "2 errors, 1 warning".
func countLine(r *Report) string {
	infos := 0
	for _, f := range r.Findings {
		if f.Severity == Info {
			infos++
		}
	}
	s := plural(r.Summary.Errors, "error") + ", " + plural(r.Summary.Warnings, "warning")
	if infos > 0 {
		s += ", " + plural(infos, "info")
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func sanJoin(list []string) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = model.Sanitize(s)
	}
	return strings.Join(out, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
