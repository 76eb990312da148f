package ui

import "github.com/mcplens/mcplens/ui/kit"

// Whatever the interface shows of a server or a call goes through one of
// these, the kit's (ui/kit/mask.go) with the config's redactor.

// text is a message as the screen shows it (an error, a note, stderr):
// the config's secrets and credential syntax masked, then sanitized.
func (c common) text(s string) string { return kit.Text(c.redact, s) }

// quote is server text shown as it came (a frame, a description, a
// result): the config's secrets masked, then sanitized.
func (c common) quote(s string) string { return kit.Quote(c.redact, s) }

// cut returns b cut to about n bytes for a line that shows at most n, with
// room for the longest secret, so that masking sees every secret that
// starts within the line whole. A frame or a description can be
// megabytes: only what is cut is copied.
func cut[T ~string | ~[]byte](c common, b T, n int) string {
	return kit.Cut(c.redact, b, n)
}
