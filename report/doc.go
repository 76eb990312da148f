// Package report is what mcplens prints when there is no terminal to draw
// on: the check report of a config, built from the servers' states and a
// naming policy, and rendered as text for a terminal or a CI log, Markdown
// for a pull request, or JSON for a program.
//
//	states, _ := report.Collect(ctx, session.Events(), cfg.Servers)
//	r := report.Build(report.Input{
//		Config:         cfg.Path,
//		Policy:         policy,
//		Profiles:       model.DefaultProfiles(),
//		Servers:        states,
//		Redact:         config.NewRedactor(cfg.Servers),
//		ConfigFindings: cfg.Findings,
//	})
//	_ = report.Write(os.Stdout, r, "markdown")
//	if sev, found := r.Worst(); found && sev >= report.Error { ... }
//
// A report lists, per server, its status, protocol, counts and every
// advertised row with its registered name, outcome and provider checks;
// then the collisions under the policy; then every finding with its
// evidence, each at a Severity. With a lock (model.Lock) it also compares each
// server's tools with their approved definitions, field by field.
//
// The findings that are not the report's own (what the tools' text gives
// away, what the config says of a server or of the file, how a server
// broke the protocol) come from Findings, the list the interface's
// findings view shows too. Every string a report holds is masked by
// Input.Redact (config.NewRedactor): the config's secrets and credential
// syntax never reach a report.
//
// The JSON form is versioned (Version) and documented in the README; its
// fields are only ever added to within a version.
package report
