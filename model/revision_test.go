package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplens/mcplens/model"
)

func TestParseRevision(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
		problem  string
	}{
		{"known stateless", "2026-07-28", true, ""},
		{"known handshake", "2024-11-05", true, ""},
		{"a future date", "2027-03-01", true, ""},
		{"not a date", "latest", false, "not a date YYYY-MM-DD"},
		{"date and more", "2026-07-28x", false, "not a date YYYY-MM-DD"},
		{"no such day", "2026-02-30", false, "not a real date"},
		{"before MCP", "2023-01-01", false, "predates MCP's first"},
		{"empty", "", false, "not a date"},
		{"terminal escape", "\x1b]0;pwned\x07", false, `\x1b`},
		{"long", strings.Repeat("9", 10000), false, "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := model.ParseRevision(tt.in)
			if (err == nil) != tt.ok || tt.ok && got != tt.in {
				t.Fatalf("ParseRevision(%q) = %q, %v; want ok %v", tt.in, got, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), tt.problem) {
				t.Errorf("ParseRevision(%q) error %q, want it to say %q", tt.in, err, tt.problem)
			}
			if err != nil && (len(err.Error()) > 300 || strings.ContainsRune(err.Error(), 0x1b)) {
				t.Errorf("ParseRevision(%q) error is unbounded or unsafe: %q", tt.in, err)
			}
		})
	}
}

func TestDescribeError(t *testing.T) {
	tests := []struct {
		code int
		msg  string
		want string
	}{
		{-32022, "Unsupported protocol version", "error -32022 (unsupported protocol version): Unsupported protocol version"},
		{-32601, "", "error -32601 (method not found)"},
		{-32020, "x", "error -32020 (header mismatch: the HTTP headers disagree with the request body, or one is missing): x"},
		{-32021, "x", "error -32021 (missing client capability: the server needs one the client did not declare): x"},
		{-32005, "own code", "error -32005: own code"},
		{-32603, "bad\x1b[2Jthing", "error -32603 (internal error in the server): bad\x1b[2Jthing"}, // as sent: views sanitize
	}
	for _, tt := range tests {
		if got := model.DescribeError(tt.code, tt.msg); got != tt.want {
			t.Errorf("DescribeError(%d, %q) = %q, want %q", tt.code, tt.msg, got, tt.want)
		}
	}
	if got := model.DescribeError(1, strings.Repeat("é", 1000)); len(got) > 320 {
		t.Errorf("DescribeError keeps %d bytes of a long message, want at most about 300", len(got))
	}
}

func ExampleDescribeError() {
	fmt.Println(model.DescribeError(-32022, "Unsupported protocol version"))
	// Output: error -32022 (unsupported protocol version): Unsupported protocol version
}

func TestHandshakeWithRevision(t *testing.T) {
	h := model.NeutralHandshake()
	if h.ProtocolVersion != model.Revision20260728 || !h.Era().Discover {
		t.Fatalf("neutral handshake asks %s, want 2026-07-28, probing", h.ProtocolVersion)
	}
	forced := h.WithRevision(model.Revision20251125)
	if forced.ProtocolVersion != model.Revision20251125 || forced.Era().Discover || forced.ClientInfo != h.ClientInfo {
		t.Errorf("WithRevision(2025-11-25) = %+v, want the same client asking 2025-11-25 with initialize", forced)
	}
	if same := h.WithRevision(""); same.ProtocolVersion != h.ProtocolVersion {
		t.Errorf("WithRevision(\"\") = %s, want the handshake's own", same.ProtocolVersion)
	}
}
