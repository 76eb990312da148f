package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcplens/mcplens/model"
	"github.com/mcplens/mcplens/surface"
)

// writeMarkdown renders the report as GitHub-flavoured Markdown, to paste
// into a pull request: a section and a table per server, then collisions
// and findings. Server text is sanitized, then escaped so that it reads as
// written: names in code spans, prose with Markdown's punctuation escaped.
func writeMarkdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# mcplens check: %s\n\n", mdText(r.Config))
	if r.Client != "" {
		line := "Client " + mdCode(r.Client)
		if r.ClientSource != "" {
			line += " (" + mdText(r.ClientSource) + ")"
		}
		bw.WriteString(line + "\n\n")
	}
	if len(r.Clients) > 0 {
		names := make([]string, len(r.Clients))
		for i, c := range r.Clients {
			names[i] = mdCode(c)
		}
		fmt.Fprintf(bw, "Clients compared (one connection each): %s\n\n", strings.Join(names, " · "))
	}
	fmt.Fprintf(bw, "Policy %s (%s) · providers %s · **%s**\n",
		mdCode(r.Policy), mdText(r.PolicySummary), mdText(orNone(strings.Join(r.Providers, ", "))), countLine(r))
	if r.Lock != nil {
		line := "\nLock " + mdCode(r.Lock.Path)
		if r.Lock.Updated {
			line += " (updated: the changes below are accepted)"
		}
		bw.WriteString(line + "\n")
	}
	for _, s := range r.Servers {
		writeMarkdownServer(bw, r, s)
	}
	if len(r.Collisions) > 0 {
		bw.WriteString("\n## Collisions\n\n| name | class | won | lost |\n|---|---|---|---|\n")
		for _, c := range r.Collisions {
			var won, lost []string
			for _, cl := range c.Claims {
				who := mdText(cl.Server) + " " + mdCode(cl.Wire)
				if cl.Won {
					won = append(won, who)
				} else {
					lost = append(lost, who+" ("+cl.Outcome+")")
				}
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", mdCode(c.Name), c.Class, orDash(strings.Join(won, ", ")), orDash(strings.Join(lost, ", ")))
		}
	}
	fmt.Fprintf(bw, "\n## Findings: %s\n\n", countLine(r))
	if len(r.Findings) == 0 {
		bw.WriteString("None.\n")
	} else {
		bw.WriteString("| level | kind | server | tool | evidence |\n|---|---|---|---|---|\n")
		for _, f := range r.Findings {
			tool := "-"
			if f.Tool != "" {
				tool = mdCode(f.Tool)
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", severityCell(f.Severity), f.Kind, mdText(f.Server), tool, mdText(f.Evidence))
		}
	}
	return bw.Flush()
}

func writeMarkdownServer(bw *bufio.Writer, r *Report, s Server) {
	fmt.Fprintf(bw, "\n## %s %s · %s\n", statusMark(s.Status), mdText(s.Label), s.Status)
	if listed(s.Status) {
		line := "\nProtocol " + mdCode(orNone(s.Protocol))
		if how, ok := strings.CutPrefix(s.ProtocolSettled, s.Protocol+" "); ok && s.Protocol != "" {
			line += " " + mdText(how)
		}
		if s.ServerInfo.Name != "" {
			line += " · " + mdText(strings.TrimSpace(s.ServerInfo.Name+" "+s.ServerInfo.Version))
		}
		fmt.Fprintf(bw, "%s · advertised %d · registered %d\n", line, s.Advertised, s.Registered)
	}
	var items []string
	instructions := ""
	for _, f := range surface.Facts(s.facts(), factWidth, factLines) {
		switch f[0] {
		case "instructions", "":
			instructions = strings.TrimSpace(instructions + " " + f[1])
		default:
			items = append(items, f[0]+": "+mdText(f[1]))
		}
	}
	if instructions != "" {
		items = append(items, "instructions: "+mdText(instructions))
	}
	if s.Error != "" {
		items = append(items, "**error:** "+mdText(s.Error))
	}
	if s.Stderr != "" {
		items = append(items, "stderr: "+mdCode(surface.LastLines(s.Stderr, 4)))
	}
	for _, n := range s.Notes {
		items = append(items, "note: "+mdText(n))
	}
	if len(s.Missing) > 0 {
		names := make([]string, len(s.Missing))
		for i, m := range s.Missing {
			names[i] = mdCode(m)
		}
		items = append(items, "missing: "+strings.Join(names, ", "))
	}
	if l := s.Lock; l != nil {
		line := "lock: **" + l.Status + "**"
		if l.Endpoint != nil {
			line += "; transport was " + mdCode(l.Endpoint.Old) + ", now " + mdCode(l.Endpoint.New)
		}
		items = append(items, line)
		for _, c := range l.Changes {
			item := "  - " + mdCode(c.Wire) + " " + c.Change
			for _, f := range c.Fields {
				item += "\n    - " + mdFieldLine(f)
			}
			items = append(items, item)
		}
	}
	items = append(items, mdOffers(s)...)
	if len(items) > 0 {
		bw.WriteString("\n")
		for _, it := range items {
			if strings.HasPrefix(it, "  ") {
				bw.WriteString(it + "\n")
			} else {
				bw.WriteString("- " + it + "\n")
			}
		}
	}
	if !listed(s.Status) {
		return
	}
	if len(s.Tools) == 0 {
		bw.WriteString("\nAdvertises no tools.\n")
		return
	}
	head, rule := "| wire name | registered as | outcome |", "|---|---|---|"
	for _, p := range r.Providers {
		head += " " + p + " |"
		rule += ":-:|"
	}
	if s.Lock != nil {
		head += " lock |"
		rule += "---|"
	}
	fmt.Fprintf(bw, "\n%s reason |\n%s---|\n", head, rule)
	for _, t := range s.Tools {
		wire := mdCode(t.Wire)
		if t.Wire == "" {
			wire = mdText(wireCell(t))
		}
		reg := "-"
		if t.RegisteredAs != "" {
			reg = mdCode(t.RegisteredAs)
		}
		row := "| " + wire + " | " + reg + " | " + t.Outcome + " |"
		for _, p := range r.Providers {
			row += " " + checkMark(t, p) + " |"
		}
		if s.Lock != nil {
			row += " " + orDash(t.Lock) + " |"
		}
		fmt.Fprintf(bw, "%s %s |\n", row, mdText(t.Reason))
	}
}

func mdFieldLine(f FieldChange) string {
	switch f.Op {
	case "added":
		return mdCode(f.Path) + " added: " + mdCode(jsonText(f.New))
	case "removed":
		return mdCode(f.Path) + " removed: " + mdCode(jsonText(f.Old))
	}
	return mdCode(f.Path) + " changed: " + mdCode(jsonText(f.Old)) + " → " + mdCode(jsonText(f.New))
}

func severityCell(s Severity) string {
	if s == Error {
		return "**error**"
	}
	return s.String()
}

// mdText sanitizes s and escapes the characters Markdown would act on
// inside a line (emphasis, code, links, HTML, entities, table cells, math);
// text is only ever placed inline, never at the start of a block. A word
// GitHub would turn into something else whatever its escapes (an
// @mention, an autolinked URL or address, an issue reference) is put in a
// code span of its own, where GitHub turns nothing.
func mdText(s string) string {
	s = model.Sanitize(s)
	words := strings.Split(s, " ")
	for i, w := range words {
		if githubActs(w) {
			words[i] = mdCode(w)
			continue
		}
		var b strings.Builder
		for _, r := range w {
			if strings.ContainsRune("\\`*_[]<>|~&#$", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		words[i] = b.String()
	}
	return strings.Join(words, " ")
}

// githubActs reports whether GitHub acts on the word w even with its
// punctuation escaped: a mention or an e-mail address (@), a URL it
// autolinks (scheme://, www.), an issue reference (#12, GH-12).
func githubActs(w string) bool {
	if strings.ContainsRune(w, '@') || strings.Contains(w, "://") {
		return true
	}
	lw := strings.ToLower(w)
	if strings.Contains(lw, "www.") {
		return true
	}
	for _, ref := range []string{"#", "gh-"} {
		for rest := lw; ; {
			i := strings.Index(rest, ref)
			if i < 0 {
				break
			}
			rest = rest[i+len(ref):]
			if rest != "" && rest[0] >= '0' && rest[0] <= '9' {
				return true
			}
		}
	}
	return false
}

// mdCode sanitizes s and writes it as a code span that survives any
// backticks in it and sits safely in a table cell.
func mdCode(s string) string {
	s = model.Sanitize(s)
	if s == "" {
		return "` `"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	s = strings.ReplaceAll(s, "|", `\|`)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
