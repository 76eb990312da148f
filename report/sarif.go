// SARIF 2.1.0: check's findings, and diff's changes, where code scanning
// shows them.

package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/mcplens/mcplens/model"
)

// sarifSchema is the schema a SARIF log names: OASIS's, errata 01.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// fingerprintKey names mcplens's partial fingerprint, versioned so that a
// change in what it hashes reads as new results, not as moved ones.
const fingerprintKey = "mcplensResult/v1"

// A Rule is one kind of SARIF result: a finding kind for check, a change
// class for diff. Help is plain text; the Markdown form is the same text.
type Rule struct {
	ID, Short, Help string
}

// FindingRules are check's rules: one per finding kind, in the order the
// SARIF log lists them.
func FindingRules() []Rule {
	return []Rule{
		{"server-failed", "A server did not start, connect or list its tools",
			"The client would start without this server: none of its tools reach the model. The evidence quotes the error and the tail of the server's stderr; run the server's command by hand to see it fail."},
		{"policy-failed", "The naming policy failed a server as a whole",
			"A fail-closed policy (lionagi) refuses a server when a name it registers differs from the one advertised, or cannot be formed. Rename the tool on the server, or pick a policy that renames safely."},
		{"tool-lost", "A tool has no route in the client's registry",
			"The policy dropped the row (its name was taken, invalid or unusable) or a later server displaced it: the model cannot call it, and calls to its name may reach another server's tool. Give the servers distinct labels or tool names, or pick a policy that prefixes names."},
		{"provider", "A provider would reject or warn about a registered name",
			"Each model provider checks tool names (characters, length). A rejected name fails the whole request to that provider, not only the tool. Shorten the server label or the tool name, or pick a policy that makes provider-safe names."},
		{"note", "A note on a server",
			"Something worth knowing that does not fail the server: a listing cut short, a label holding the policy's separator."},
		{"lock", "A tool differs from its approved definition in the lock",
			"The lock file pins each tool's definition. A changed description or schema after approval is the rug-pull shape: review the change, then accept it with check --update-lock."},
		{"config", "The config says something its client does not read or cannot resolve",
			"An unknown key, an unset variable, a syntax only some clients accept: the client goes on without it, which may not be what was meant."},
		{"protocol", "A server broke the MCP or JSON-RPC protocol",
			"Text that is not JSON on stdout, an answer to an id nobody asked for, a listing whose cursor repeats. Clients differ in what they tolerate; fix the server."},
		{"gated-tool", "A tool is advertised to some clients and not to others",
			"The server chooses its tools by client (clientInfo, capabilities, headers): a surface checked as one client is not the surface another client sees."},
		{"needs-login", "A remote server needs the user to log in",
			"The server answered 401 (or 403 insufficient_scope): the MCP authorization flow must run before the client sees any tool. Run mcplens login CONFIG SERVER; in CI, store a token first or give a static Authorization header."},
		{"prompt-lost", "A prompt has no slash command in the client",
			"Clients turn prompts into slash commands with their own naming; two servers' prompts that want the same command lose one of them, as tools do. Rename a prompt or a server label."},
		{"prompt-renamed", "A prompt's slash command is not the name the server gave",
			"The client qualified or rewrote the prompt's name (a collision, a built-in command of the same name): users type another command than the server documents."},
		{"output-schema", "A call's structuredContent breaks the tool's outputSchema",
			"A client that validates structured output rejects the result. The evidence lists the JSON pointers that fail; fix the server's output or its schema."},
		{"lookalike", "Tool names on different servers read alike",
			"Names that differ only in case, separators, confusable or invisible characters let one server's tool pass for another's. Rename one of them."},
		{"cross-reference", "A description mentions another server or its tools",
			"A tool that tells the model to use, or to pass data to, another server's tool is the tool-poisoning shape. Read the description."},
		{"invisible-text", "Invisible characters in a name or description",
			"Zero-width, bidirectional, tag or variation-selector characters hide text from a reviewer that the model still reads. The evidence spells out what they say."},
		{"control-text", "Control characters in a name or description",
			"Escape sequences and other controls can rewrite what a terminal or log shows. Remove them on the server."},
		{"task-required", "A tool must run as a task, which some clients do not do",
			"Its execution.taskSupport is \"required\": a client that runs no tasks (2025-11-25) sends a plain tools/call, which the server refuses. The tool is registered but uncallable under such a client."},
		{"wire-name", "A wire name the MCP specification advises against",
			"The specification advises 1 to 128 characters of letters, digits, '_', '-' and '.'. Other names work with some clients and break others."},
		{"schema", "A tool's input schema has a problem",
			"The schema is not what a client can hand to a model as it is. The evidence says what is wrong."},
		{"app-only", "A tool is for its MCP App only",
			"Its _meta.ui.visibility leaves out the model: a client that hosts apps keeps it from the model and lets only the app call it; a client that does not host apps hands it to the model as any other tool."},
		{"app-meta", "A tool's _meta.ui is malformed",
			"Hosts read resourceUri as a ui:// URI and visibility as an array of \"model\" and \"app\"; anything else is read differently by each host, or ignored."},
		{"app-resource", "A tool's MCP App resource is missing or of another type",
			"The ui:// resource a tool names must be in resources/list with the type text/html;profile=mcp-app, or no host can show the app."},
		{"app-csp", "An MCP App's content security policy is malformed",
			"Each domain of _meta.ui.csp must be an origin (scheme://host[:port]); anything else is left out of the policy a host builds, or would add directives to it."},
		{"app-permission", "An MCP App asks for a permission it does not explain",
			"Camera, microphone, location and clipboard are granted by the user: a description that does not say why the app needs them gives the user nothing to decide by."},
	}
}

// A sarifLog is a SARIF 2.1.0 log of one run.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool       `json:"tool"`
	AutomationDetails sarifAutomation `json:"automationDetails"`
	Results           []sarifResult   `json:"results"`
	fingerprints      map[string]int  // times each fingerprint was given
	ruleIndex         map[string]int  // rule id → index in Rules
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	Help                 sarifHelp          `json:"help"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// newSARIFRun starts the run of one config (automation names it), listing
// rules.
func newSARIFRun(automation string, rules []Rule) *sarifRun {
	run := &sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "mcplens",
			InformationURI: "https://github.com/mcplens/mcplens",
			Rules:          []sarifRule{},
		}},
		AutomationDetails: sarifAutomation{ID: automation},
		Results:           []sarifResult{},
		fingerprints:      map[string]int{},
		ruleIndex:         map[string]int{},
	}
	for _, r := range rules {
		run.rule(r, "warning")
	}
	return run
}

// rule returns the index of the rule, adding it when the run lacks it.
func (run *sarifRun) rule(r Rule, level string) int {
	if i, ok := run.ruleIndex[r.ID]; ok {
		return i
	}
	run.ruleIndex[r.ID] = len(run.Tool.Driver.Rules)
	run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
		ID:                   r.ID,
		Name:                 ruleName(r.ID),
		ShortDescription:     sarifText{Text: r.Short},
		FullDescription:      sarifText{Text: strings.TrimSuffix(r.Short, ".") + "."},
		Help:                 sarifHelp{Text: r.Help, Markdown: r.Help},
		DefaultConfiguration: sarifConfiguration{Level: level},
	})
	return run.ruleIndex[r.ID]
}

// ruleName is a rule id in the PascalCase SARIF viewers show:
// "tool-lost" → "ToolLost".
func ruleName(id string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(id, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// A place is where a result is: the config file (uri, "" for none) at a
// server's declaration, the server and the tool.
type place struct {
	uri          string
	line, col    int
	server, tool string
}

// add records a result of rule id. key is what identifies it across runs
// (its fingerprint hashes key, the rule, server and tool, and how many
// results before it had the same); message is sanitized here.
func (run *sarifRun) add(id, level, message, key string, at place) {
	idx, ok := run.ruleIndex[id]
	if !ok {
		idx = run.rule(Rule{ID: id, Short: id, Help: id}, level)
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{id, at.server, at.tool, key}, "\x00")))
	fp := hex.EncodeToString(sum[:16])
	n := run.fingerprints[fp]
	run.fingerprints[fp] = n + 1
	fp = fmt.Sprintf("%s:%d", fp, n+1)

	loc := sarifLocation{LogicalLocations: logical(at)}
	if at.uri != "" {
		loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifact{URI: at.uri}}
		if at.line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: at.line, StartColumn: max(at.col, 1)}
		}
	}
	run.Results = append(run.Results, sarifResult{
		RuleID:              id,
		RuleIndex:           idx,
		Level:               level,
		Message:             sarifText{Text: model.Sanitize(message)},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{fingerprintKey: fp},
	})
}

// logical names the server and the tool of a result.
func logical(at place) []sarifLogical {
	out := []sarifLogical{}
	if at.server == "" {
		return append(out, sarifLogical{Name: "config", FullyQualifiedName: "config", Kind: "module"})
	}
	out = append(out, sarifLogical{Name: model.Sanitize(at.server), FullyQualifiedName: model.Sanitize(at.server), Kind: "module"})
	if at.tool != "" {
		out = append(out, sarifLogical{Name: model.Sanitize(at.tool), FullyQualifiedName: model.Sanitize(at.server + "/" + at.tool), Kind: "function"})
	}
	return out
}

// sarifLevel is a severity as SARIF spells it.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// ArtifactURI is a config path as a SARIF artifact URI: relative paths
// stay relative (code scanning resolves them from the repository's root),
// absolute ones become file URIs. "" when path names no file.
func ArtifactURI(path string, fileBacked bool) string {
	if !fileBacked || path == "" {
		return ""
	}
	slashed := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		return (&url.URL{Scheme: "file", Path: slashed}).String()
	}
	return (&url.URL{Path: strings.TrimPrefix(slashed, "./")}).String()
}

// AutomationID is the SARIF automation id of a run on a config: a category
// per config, so code scanning keeps each config's results apart.
func AutomationID(command, config string) string {
	return "mcplens/" + command + "/" + filepath.ToSlash(config) + "/"
}

// stableEvidence is the part of a finding's evidence that identifies it
// across runs: none for the kinds whose evidence quotes what changes from
// run to run (errors, stderr, timings).
func stableEvidence(f Finding) string {
	switch f.Kind {
	case "server-failed", "note", "protocol", "policy-failed":
		return ""
	}
	return f.Evidence
}

// writeSARIF writes the check report as a SARIF log: one rule per finding
// kind, one result per finding, located at the server's line in the config.
func writeSARIF(w io.Writer, r *Report) error {
	fileBacked := false
	pos := map[string]Server{}
	for _, s := range r.Servers {
		fileBacked = fileBacked || s.Line > 0
		if _, dup := pos[s.Label]; !dup {
			pos[s.Label] = s
		}
	}
	uri := ArtifactURI(r.Config, fileBacked)
	run := newSARIFRun(AutomationID("check", r.Config), FindingRules())
	for _, f := range r.Findings {
		at := place{uri: uri, server: f.Server, tool: f.Tool, line: pos[f.Server].Line, col: pos[f.Server].Col}
		msg := f.Evidence
		switch {
		case f.Server != "" && f.Tool != "":
			msg = fmt.Sprintf("%s on %s: %s", f.Tool, f.Server, f.Evidence)
		case f.Server != "":
			msg = fmt.Sprintf("%s: %s", f.Server, f.Evidence)
		}
		run.add(f.Kind, sarifLevel(f.Severity), msg, stableEvidence(f), at)
	}
	return encodeSARIFRuns(w, []sarifRun{*run})
}

// encodeSARIFRuns writes the log of runs, the characters that hide text
// escaped as in the JSON report.
func encodeSARIFRuns(w io.Writer, runs []sarifRun) error {
	return writeIndented(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: runs}, "SARIF")
}
