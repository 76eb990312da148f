package model

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Revisions lists the protocol revisions mcplens knows, newest first.
func Revisions() []string {
	return []string{Revision20260728, Revision20251125, Revision20250618, Revision20250326, Revision20241105}
}

// dateShaped is a revision's shape: revisions are release dates.
var dateShaped = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// ParseRevision checks a revision given to --protocol: one mcplens knows,
// or one shaped as a revision is (a real date, YYYY-MM-DD), which mcplens
// speaks as the era of its date (EraOf). The error names the violation.
func ParseRevision(s string) (string, error) {
	if slices.Contains(Revisions(), s) {
		return s, nil
	}
	if !dateShaped.MatchString(s) {
		return "", fmt.Errorf("protocol revision %q is not a date YYYY-MM-DD (known: %s)", ClipText(s, 40), strings.Join(Revisions(), ", "))
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return "", fmt.Errorf("protocol revision %q is not a real date (known: %s)", s, strings.Join(Revisions(), ", "))
	}
	if s < Revision20241105 {
		return "", fmt.Errorf("protocol revision %q predates MCP's first, %s", s, Revision20241105)
	}
	return s, nil
}

// WithRevision returns the handshake asking for revision instead of its own
// (--protocol): the profile's identity, capabilities and headers are kept,
// its era becomes the revision's.
func (h Handshake) WithRevision(revision string) Handshake {
	if revision != "" {
		h.ProtocolVersion = revision
	}
	return h
}

// The JSON-RPC error codes MCP gives a meaning, from the schema of each
// revision: JSON-RPC's own, and MCP's from -32020 on (2026-07-28), with the
// ones earlier revisions defined and retired.
const (
	CodeParseError                 = -32700
	CodeInvalidRequest             = -32600
	CodeMethodNotFound             = -32601
	CodeInvalidParams              = -32602
	CodeInternalError              = -32603
	CodeResourceNotFound           = -32002 // up to 2025-11-25; -32602 from 2026-07-28
	CodeHeaderMismatch             = -32020
	CodeMissingClientCapability    = -32021
	CodeUnsupportedProtocolVersion = -32022
	CodeURLElicitationRequired     = -32042 // 2025-11-25 only
)

// errorCodes is the one table of those codes in plain words.
var errorCodes = map[int]string{
	CodeParseError:                 "parse error: the server could not read the JSON",
	CodeInvalidRequest:             "invalid request: not a valid JSON-RPC request",
	CodeMethodNotFound:             "method not found",
	CodeInvalidParams:              "invalid params",
	CodeInternalError:              "internal error in the server",
	CodeResourceNotFound:           "resource not found",
	CodeHeaderMismatch:             "header mismatch: the HTTP headers disagree with the request body, or one is missing",
	CodeMissingClientCapability:    "missing client capability: the server needs one the client did not declare",
	CodeUnsupportedProtocolVersion: "unsupported protocol version",
	CodeURLElicitationRequired:     "URL elicitation required: the user must open a link first",
}

// ErrorCodeName says what a JSON-RPC error code means, in plain words: ""
// for a code MCP gives no meaning (-32000 to -32019 are each server's own).
func ErrorCodeName(code int) string {
	return errorCodes[code]
}

// DescribeError is a server's error answer as mcplens shows it: the code,
// what it means when MCP says, and the server's message, clipped, as sent
// (the evidence: every view sanitizes what it prints): "error -32022
// (unsupported protocol version): no such version".
func DescribeError(code int, message string) string {
	s := "error " + strconv.Itoa(code)
	if name := ErrorCodeName(code); name != "" {
		s += " (" + name + ")"
	}
	if message = strings.TrimSpace(message); message != "" {
		s += ": " + ClipText(message, 300)
	}
	return s
}

// ClipText cuts s to at most n bytes, on a rune boundary, marking the cut.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
