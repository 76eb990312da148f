// Package surfacediff owns the snapshot document of a tool surface and the
// comparison of two of them. A Document is the whole surface of one
// config as one client saw it, in canonical JSON (RFC 8785): its servers
// and what each said of itself, every advertised definition, and under
// every naming policy the registry (registered name, wire name, outcome,
// who displaced whom), the provider verdicts and the findings. Compare
// says what changed between two documents, change by change, each in a
// Class a CI run can fail on. It takes every status, outcome and finding
// from surface and model and decides none of its own; it must not import
// ui, report or cli.
//
//	doc := surfacediff.Capture("mcp.json", "", snap, model.DefaultProfiles())
//	data, _ := doc.Marshal()
//	old, _ := surfacediff.Parse(data)
//	d := surfacediff.Compare(old, doc, "lionagi")
//	if d.Fails(surfacediff.DefaultFailOn()) { ... }
//
// A lock file reads as a Document of definitions only (FromLock): compared
// with it, only tools added, removed and changed are said.
package surfacediff
