package ui

import "github.com/mcplens/mcplens/model"

// Whatever the interface shows of a server or a call goes through one of
// these: the config's secrets are masked (config.NewRedactor) before the
// text is sanitized, so that no secret the config holds reaches the
// screen, in a message, a frame or a description.

// text is a message as the screen shows it (an error, a note, stderr):
// the config's secrets and credential syntax masked, then sanitized.
func (c common) text(s string) string { return model.Sanitize(c.redact.Text(s)) }

// quote is server text shown as it came (a frame, a description, a
// result): the config's secrets masked, then sanitized.
func (c common) quote(s string) string { return model.Sanitize(c.redact.Values(s)) }

// cut returns b cut to about n bytes for a line that shows at most n, with
// room for the longest secret, so that masking sees every secret that
// starts within the line whole. A frame or a description can be
// megabytes: only what is cut is copied.
func cut[T ~string | ~[]byte](c common, b T, n int) string {
	if n += c.redact.Longest(); len(b) > n {
		b = b[:n]
	}
	return string(b)
}
