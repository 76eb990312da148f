// Package report renders what mcplens found when there is no terminal to
// draw on: the check report of an assessment (surface.Assessment) as text
// for a terminal or a CI log, Markdown for a pull request, JSON for a
// program, SARIF 2.1.0 for code scanning or JUnit XML for test reports; and
// a diff of two surfaces (surfacediff.Diff, WriteDiff). It decides
// nothing: statuses, findings and the lock comparison are the
// assessment's, changes the diff's; report only shapes and writes them. It
// must not import ui or cli.
//
//	snap := surface.New(cfg.Servers, cfg.Findings)
//	_ = surface.Collect(ctx, session.Events(), snap)
//	a := surface.Assess(snap, surface.Options{Policy: policy, Profiles: model.DefaultProfiles()})
//	r := report.Build(cfg.Path, a)
//	_ = report.Write(os.Stdout, r, "markdown")
//	if sev, found := r.Worst(); found && sev >= report.Error { ... }
//
// A report lists, per server, its status, protocol, counts and every
// advertised row with its registered name, outcome and provider checks;
// then the collisions under the policy; then every finding with its
// evidence, each at a Severity; with a lock, each server's tools compared with
// their approved definitions, field by field. Every string a report holds
// is masked by the snapshot's redactor (config.NewRedactor): the config's
// secrets and credential syntax never reach a report.
//
// The JSON form is versioned (Version) and documented in the README; its
// fields are only ever added to within a version.
package report
